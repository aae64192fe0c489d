// wrk (the C load generator, Debian's `wrk`) as a bench's client: a node client sending 16 requests
// at a time over keep-alive node:http spends about as much CPU per request as a cached answer costs
// the gateway, so on 2 cores it takes a core the server could use. wrk spends a small fraction of
// that. One POST, the same body and headers for every request (a Lua script sets them), 16
// connections on one thread, `--latency` for the percentiles.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stats } from './stats.js';

export interface WrkResult {
  st: Stats;
  /** answers with a status other than 2xx/3xx */
  non2xx: number;
  /** connect, read, write and timeout errors */
  socketErrors: number;
  /** CPU wrk itself spent per request, ms */
  clientCpu: number;
}

/** CPU (user + system, ms) of this process's children that have exited and been waited for (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 16 and 17 of stat(5), counted from the state (field 3) at index 0
  // in clock ticks, 100 a second on Linux (getconf CLK_TCK)
  return ((Number(f[13]) + Number(f[14])) * 1000) / 100;
}

/** A Lua string literal (long bracket form, with a level no body contains). */
function luaString(s: string): string {
  let eq = '';
  while (s.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${s}]${eq}]`;
}

/** The Lua script that makes every request the same POST. */
export function wrkScript(body: string, headers: Record<string, string>): string {
  const lines = ['wrk.method = "POST"', `wrk.body = ${luaString(body)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[ ${luaString(k)} ] = ${luaString(v)}`);
  if (process.env.WRK_DEBUG) lines.push('local shown = false', 'function response(status, headers, body)', '  if status ~= 200 and not shown then shown = true; io.stderr:write(status .. " " .. body .. "\\n") end', 'end');
  return `${lines.join('\n')}\n`;
}

/** wrk's duration text (`635.91us`, `1.03ms`, `2.10s`) in ms. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

/** Parse wrk's report (run with --latency). */
export function parseWrk(out: string): Omit<WrkResult, 'clientCpu'> {
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const pct = (p: number) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const requests = num(/(\d+) requests in/);
  const seconds = ms(/requests in ([\d.]+\w+),/.exec(out)?.[1] ?? '') / 1000;
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = errs ? errs.slice(1).reduce((s, x) => s + Number(x), 0) : 0;
  const rps = num(/Requests\/sec:\s+([\d.]+)/);
  const mean = ms(/Latency\s+(\S+)/.exec(out)?.[1] ?? '');
  // wrk prints 50/75/90/99: p95 is not among them, shown as the 90th
  const st: Stats = { n: requests, p50: pct(50), p95: pct(90), p99: pct(99), mean, rps: rps || requests / seconds };
  return { st, non2xx: num(/Non-2xx or 3xx responses: (\d+)/), socketErrors };
}

/** POST `body` with `headers` to `url` from `connections` connections for `seconds`. */
export async function runWrk(opts: { url: string; body: string; headers: Record<string, string>; seconds: number; connections: number; threads?: number }): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  const script = join(dir, 'post.lua');
  writeFileSync(script, wrkScript(opts.body, opts.headers));
  try {
    const cpu0 = childrenCpuMs();
    const out = await new Promise<string>((ok, fail) =>
      execFile('wrk', [`-t${opts.threads ?? 1}`, `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency', '-s', script, opts.url], { timeout: (opts.seconds + 30) * 1000 }, (e, stdout, stderr) => {
        if (stderr) console.log(`# wrk: ${stderr.trim()}`);
        return e ? fail(new Error(`wrk failed: ${e.message} ${stderr}`)) : ok(stdout);
      },
      ),
    );
    const r = parseWrk(out);
    return { ...r, clientCpu: (childrenCpuMs() - cpu0) / Math.max(1, r.st.n) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether wrk is on PATH (the wrk scenarios are skipped, with a line saying so, when it is not). */
export function hasWrk(): Promise<boolean> {
  // `wrk --version` exits 1 after printing its version: only a missing binary counts
  return new Promise((ok) => execFile('wrk', ['--version'], (e) => ok((e as NodeJS.ErrnoException | null)?.code !== 'ENOENT')));
}
