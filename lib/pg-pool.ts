// The one way this code base opens a plain pg pool: one that survives its server going away.
// pg emits 'error' on a client whose connection drops, and pg-pool listens only while the client is
// idle: a drop while a client is checked out (mid-transaction) was an unhandled 'error' event that
// ended the process (found by test/e2e/faults.transactions.test.ts). Every client now gets a listener
// of its own: the statement in flight still fails (the caller answers 503, lib/graphql-errors.ts
// databaseUnavailable), the pool discards the broken client on release, and the next checkout
// connects anew.
import pg from 'pg';
import type { Logger } from './logger.js';

/** `what` names the pool in the log lines ("idle <what> connection lost"). */
export function createPgPool(config: pg.PoolConfig, log: Logger, what: string): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', (err) => log.warn(`idle ${what} connection lost`, { err }));
  pool.on('connect', (client) => client.on('error', (err) => log.debug(`${what} connection lost while in use`, { err })));
  return pool;
}
