// Process entry: one clear line for configuration errors, graceful shutdown on signals. Kept free of
// heavy imports so light processes (the REST bridge) don't load the ORM just to start.
import { ConfigError, envInt } from './config.js';
import { beginDrain } from './lifecycle.js';

/** What `main` returns: stop everything before `deadline` (epoch ms), in parallel where it can. */
export type Stop = (deadline: number) => Promise<void>;

/**
 * Run `main`; a ConfigError prints `error: VARIABLE: detail` and exits 1, anything else exits 1 with
 * its message. On SIGTERM/SIGINT (docs/deploy.md): readiness answers 503 at once, the process keeps
 * serving for SHUTDOWN_DELAY_MS, then stops within SHUTDOWN_GRACE_MS (exits 1 if something hangs past
 * that bound).
 */
export async function runMain(main: () => Promise<Stop>): Promise<void> {
  // read before start-up so a bad value stops it (loadConfig checks them the same way)
  const delayMs = envInt(process.env, 'SHUTDOWN_DELAY_MS', 0, 0);
  const graceMs = envInt(process.env, 'SHUTDOWN_GRACE_MS', 10_000);
  let stop: Stop | undefined;
  let signalled = false;
  const shutdown = async (signal: string) => {
    // a terminal's Ctrl-C reaches both npm and node, and npm forwards it: one shutdown
    if (signalled) return;
    signalled = true;
    beginDrain();
    process.stderr.write(`received ${signal}, shutting down${delayMs ? ` (not ready; serving ${delayMs} ms more)` : ''}\n`);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const deadline = Date.now() + graceMs;
    // the bound holds even if a step ignores its deadline: 1 s for the last writes, then exit
    setTimeout(() => {
      process.stderr.write(`error: shutdown took longer than SHUTDOWN_GRACE_MS (${graceMs} ms): exiting\n`);
      process.exit(1);
    }, graceMs + 1000).unref();
    try {
      await stop?.(deadline);
      process.exit(0);
    } catch (e) {
      process.stderr.write(`error: shutdown failed: ${(e as Error).message}\n`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    stop = await main();
  } catch (e) {
    if (e instanceof ConfigError) process.stderr.write(`error: ${e.message}\n`);
    else process.stderr.write(`error: start-up failed: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
