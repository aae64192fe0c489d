// Direct access to the platform subgraph's tables of the run's database, for what no API does on
// purpose: running the renewal job with a fake clock, and back-dating fixture rows for reports.
import type { MikroORM } from '@mikro-orm/postgresql';
import { ManualClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub, type PubSub } from '../../lib/pubsub.js';
import { createOrm } from '../../lib/db.js';
import { platform } from '../../subgraphs/platform/index.js';
import { runBillingCycle, type BillingRunResult } from '../../subgraphs/platform/subscriptions/billing.job.js';
import { stack } from './client.js';
import { loadConfig } from '../../lib/config.js';
import { masterSecretBox } from '../../lib/crypto.js';

export function databaseUrlOfStack(): string {
  const env = stack().env;
  return env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/supergraph`;
}

export interface PlatformDb {
  orm: MikroORM;
  /** run a query on the platform schema */
  sql<T = any>(query: string, params?: unknown[]): Promise<T[]>;
  /** the platform id of a platform code */
  platformId(code: string): Promise<string>;
  /** run the renewal job for one platform at `at`; returns its result and the account events it published */
  runBilling(platformCode: string, at: Date): Promise<{ result: BillingRunResult; events: any[] }>;
  close(): Promise<void>;
}

export async function openPlatformDb(): Promise<PlatformDb> {
  const orm = await createOrm({ url: databaseUrlOfStack(), schema: 'platform', entities: platform.entities, migrations: platform.migrations, filters: platform.filters, poolMax: 4 });
  const log = createLogger({ test: 'billing' }, 'silent');
  const sql = async <T>(query: string, params: unknown[] = []) => (await orm.em.getConnection().execute(query, params)) as T[];
  const db: PlatformDb = {
    orm,
    sql,
    async platformId(code) {
      const rows = await sql<{ id: string }>('select id from platform.platforms where code = ?', [code]);
      if (!rows[0]) throw new Error(`no platform ${code}`);
      return rows[0].id;
    },
    async runBilling(platformCode, at) {
      const pubsub: PubSub = createMemoryPubSub();
      const platformId = await db.platformId(platformCode);
      const events: any[] = [];
      const it = pubsub.subscribe(`platform.account.events:${platformId}`);
      const collecting = (async () => {
        for await (const e of { [Symbol.asyncIterator]: () => it }) events.push(e);
      })();
      // the stack's master key, so the job run here seals outbox deliveries as the subgraph would
      const cfg = loadConfig({ ...process.env, ...stack().env });
      const outbox = { secrets: masterSecretBox(cfg), maxAttempts: cfg.webhookMaxAttempts };
      const result = await runBillingCycle({ em: orm.em.fork(), clock: new ManualClock(at), pubsub, log, outbox }, { platformId });
      await new Promise((r) => setImmediate(r));
      await it.return?.();
      await collecting;
      await pubsub.close();
      return { result, events };
    },
    close: () => orm.close(),
  };
  return db;
}
