// Process entry: one clear line for configuration errors, graceful shutdown on signals. Kept free of
// heavy imports so light processes (the REST bridge) don't load the ORM just to start.
import { ConfigError } from './config.js';

/** Run `main`; a ConfigError prints `error: VARIABLE: detail` and exits 1, anything else exits 1 with its message. */
export async function runMain(main: () => Promise<() => Promise<void>>): Promise<void> {
  let stop: (() => Promise<void>) | undefined;
  const shutdown = async (signal: string) => {
    process.stderr.write(`received ${signal}, shutting down\n`);
    try {
      await stop?.();
      process.exit(0);
    } catch (e) {
      process.stderr.write(`error: shutdown failed: ${(e as Error).message}\n`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    stop = await main();
  } catch (e) {
    if (e instanceof ConfigError) process.stderr.write(`error: ${e.message}\n`);
    else process.stderr.write(`error: start-up failed: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
