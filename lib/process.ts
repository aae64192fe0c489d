// Process entry helpers: one clear line for configuration errors, graceful shutdown on signals.
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { checkDatabase, databaseUrl } from './db.js';
import { createInfra } from './infra.js';
import { startSubgraph, type SubgraphDefinition } from './subgraph.js';

/** Run `main`; a ConfigError prints `error: VARIABLE: detail` and exits 1, anything else exits 1 with its message. */
export async function runMain(main: () => Promise<() => Promise<void>>): Promise<void> {
  let stop: (() => Promise<void>) | undefined;
  const shutdown = async (signal: string) => {
    process.stderr.write(`received ${signal}, shutting down\n`);
    try {
      await stop?.();
    } finally {
      process.exit(0);
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

/** `npm run start:<name>`: one subgraph in its own process, as it would be deployed. */
export function runStandaloneSubgraph(def: SubgraphDefinition<any>): Promise<void> {
  return runMain(async () => {
    const cfg = loadConfig();
    const log = createLogger({ proc: def.name }, cfg.logLevel);
    const url = databaseUrl(cfg);
    await checkDatabase(url, cfg);
    const infra = await createInfra(cfg, log);
    const sg = await startSubgraph(def, { cfg, log, pubsub: infra.pubsub, dbUrl: url });
    console.log(`${def.name} subgraph ready at ${sg.url}`);
    return async () => {
      await sg.stop();
      await infra.close();
    };
  });
}
