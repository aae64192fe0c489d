// A CPU profile of another process's main thread over a stretch the bench chooses (not its whole life,
// as --cpu-prof would take it: start-up left out). The process runs with `--inspect=127.0.0.1:<port>`;
// this connects to its inspector, starts the sampling profiler, and on stop writes the profile where
// bench:profile-summary and bench:flamegraph read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import WebSocket from 'ws';

export interface RemoteProfile {
  /** stop profiling, write the profile to `file` (a .cpuprofile), close the connection */
  stop(file: string): Promise<void>;
}

/** The inspector flag that lets profileOverInspector reach a process on `port`. */
export const inspectFlag = (port: number) => `--inspect=127.0.0.1:${port}`;

/** Start profiling the main thread of the process whose inspector listens on `port`; `intervalUs`: the sampling interval. */
export async function profileOverInspector(port: number, intervalUs = 200): Promise<RemoteProfile> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl, { maxPayload: 2 ** 30 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(`inspector: ${m.error.message}`));
    else w.resolve(m.result);
  });
  const post = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      ws.close();
    },
  };
}
