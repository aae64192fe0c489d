// Every search process drops a deleted index's engine: the deletion task sends NOTIFY on
// DROP_CHANNEL in its transaction (delivered at commit to every process sharing the database, no
// Redis needed), and each process LISTENs. Notifications missed while the LISTEN connection was
// down are caught by a check of the loaded ids after reconnecting and every `sweepMs`.
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import { PgListener } from '../../../lib/pg-listener.js';
import { run } from '../db.js';
import type { EngineRegistry } from './engine-registry.js';

export const DROP_CHANNEL = 'search_index_dropped';

/** In the deletion's transaction: tell every process to drop the index's engine at commit. */
export async function notifyIndexDropped(c: pg.PoolClient, indexId: string): Promise<void> {
  await run(c, 'select pg_notify($1, $2)', [DROP_CHANNEL, indexId]);
}

export interface EngineDrops {
  stop(): Promise<void>;
}

export async function listenForDrops(o: { dbUrl: string; engines: EngineRegistry; log: Logger; sweepMs: number }): Promise<EngineDrops> {
  const sweep = () => void o.engines.dropDeleted().catch((err) => o.log.warn('engine drop check failed', { err }));
  const listener = new PgListener({
    dbUrl: o.dbUrl,
    channel: DROP_CHANNEL,
    log: o.log,
    onNotify: (id) => id && o.engines.drop(id),
    onReconnect: sweep,
    lostMessage: 'engine drop listener lost its connection; checking loaded indexes when it is back',
  });
  await listener.start();
  const timer = setInterval(sweep, o.sweepMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await listener.stop();
    },
  };
}
