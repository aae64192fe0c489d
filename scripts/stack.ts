// The whole system in one process, as `npm start` runs it: embedded PostgreSQL unless
// DATABASE_URL is set, one in-process pub/sub unless REDIS_URL is set, the four subgraphs, the
// gateway and the REST bridge on the ports of CONTRACT.md. Also used by tests and benchmarks.
import type { Config } from '../lib/config.js';
import { checkDatabase, databaseUrl, startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db.js';
import { createInfra, type Infra } from '../lib/infra.js';
import { LocalRoutes } from '../lib/local-transport.js';
import type { Logger } from '../lib/logger.js';
import { ProcessShared } from '../lib/process-shared.js';
import { startSubgraph, type RunningSubgraph } from '../lib/subgraph.js';
import { startGateway, type RunningGateway } from '../gateway/gateway.js';
import { startRestBridge } from '../rest-bridge/server.js';
import { SUBGRAPHS } from './subgraphs.js';

export interface RunningStack {
  cfg: Config;
  infra: Infra;
  subgraphs: RunningSubgraph[];
  gateway: RunningGateway;
  rest: { url: string; port: number; drain(deadline: number): Promise<void>; stop(deadline?: number): Promise<void> };
  dbUrl: string;
  /** drain every server in parallel, then stop the rest, all before `deadline` (SHUTDOWN_GRACE_MS from now by default) */
  stop(deadline?: number): Promise<void>;
}

export async function startStack(given: Config, log: Logger): Promise<RunningStack> {
  // npm start applies the migrations at start unless MIGRATE_ON_START=0 says otherwise
  const cfg = { ...given, migrateOnStart: given.migrateOnStart ?? true };
  let embedded: EmbeddedDatabase | undefined;
  if (!cfg.databaseUrl) embedded = await startEmbeddedPostgres(cfg, log);
  const dbUrl = embedded?.url ?? databaseUrl(cfg);
  await checkDatabase(dbUrl, cfg);
  const infra = await createInfra(cfg, log);
  const subgraphs: RunningSubgraph[] = [];
  // the gateway calls the subgraphs of this process, and the bridge the gateway, without HTTP (lib/local-transport.ts)
  const local = cfg.inProcessFetch ? new LocalRoutes() : undefined;
  // the vision models load once for the AI and catalog subgraphs (lib/process-shared.ts)
  const shared = new ProcessShared();
  try {
    // Sequential: migrations of different schemas could run in parallel, but start-up is
    // dominated by schema building, which is CPU-bound anyway.
    for (const def of Object.values(SUBGRAPHS)) {
      subgraphs.push(await startSubgraph(def!, { cfg, log, pubsub: infra.pubsub, dbUrl, local, shared }));
    }
    const gateway = await startGateway({ cfg, log, infra, local });
    const rest = await startRestBridge({ cfg, log, local });
    return {
      cfg,
      infra,
      subgraphs,
      gateway,
      rest,
      dbUrl,
      async stop(deadline = Date.now() + cfg.shutdownGraceMs) {
        // every listener closes at once and the requests in flight finish in parallel; the parts
        // still answer one another in process meanwhile (a bridge request in flight calls the gateway)
        await Promise.all([rest, gateway, ...subgraphs].map((p) => p.drain(deadline)));
        // the edges first: the gateway's last usage flush goes to the platform subgraph
        await Promise.all([rest.stop(deadline), gateway.stop(deadline)]);
        await Promise.all(subgraphs.map((s) => s.stop(deadline)));
        await shared.stop();
        await infra.close();
        await embedded?.stop();
      },
    };
  } catch (e) {
    for (const s of subgraphs) await s.stop().catch(() => undefined);
    await shared.stop().catch(() => undefined);
    await infra.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw e;
  }
}
