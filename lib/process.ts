// Entry of a standalone subgraph process (npm run start:<name>).
export { runMain } from './main.js';
import { loadConfig, requireSharedState } from './config.js';
import { runMain } from './main.js';
import { createLogger } from './logger.js';
import { checkDatabase, databaseUrl } from './db.js';
import { createInfra } from './infra.js';
import { startSubgraph, type SubgraphDefinition } from './subgraph.js';

/** `npm run start:<name>`: one subgraph in its own process, as it would be deployed. */
export function runStandaloneSubgraph(def: SubgraphDefinition<any>): Promise<void> {
  return runMain(async () => {
    const cfg = loadConfig();
    requireSharedState(cfg);
    const log = createLogger({ proc: def.name }, cfg.logLevel);
    const url = databaseUrl(cfg);
    await checkDatabase(url, cfg);
    const infra = await createInfra(cfg, log);
    const sg = await startSubgraph(def, { cfg, log, pubsub: infra.pubsub, dbUrl: url });
    console.log(`${def.name} subgraph ready at ${sg.url}`);
    return async (deadline) => {
      await sg.stop(deadline);
      await infra.close();
    };
  });
}
