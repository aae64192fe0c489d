// A plain pg pool for the search service's hot paths (task claiming and processing, bulk document
// writes, engine loading, analytics and webhook outboxes). Why not em.execute: MikroORM formats
// parameters into the SQL text client-side, escaping a 1,000-document batch character by character
// and bytea snapshots as hex literals; pg sends them as bind parameters. The tables are still the
// MikroORM entities' (migrations own the schema); request-path reads go through the ORM with its
// tenant filter, and only ever reach these rows through an index the filter resolved.
import pg from 'pg';
import type { Logger } from '../../lib/logger.js';
import { createPgPool } from '../../lib/pg-pool.js';

export type Db = pg.Pool | pg.PoolClient;

export function createPool(url: string, log: Logger, max = 6): pg.Pool {
  return createPgPool({ connectionString: url, max, idleTimeoutMillis: 30_000 }, log, 'pg');
}

/** Run `fn` in one transaction on one connection; rolled back when it throws. */
export async function withTx<R>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<R>): Promise<R> {
  const c = await pool.connect();
  try {
    await c.query('begin');
    const r = await fn(c);
    await c.query('commit');
    return r;
  } catch (e) {
    await c.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

export async function rows<R = Record<string, any>>(db: Db, sql: string, params: unknown[] = []): Promise<R[]> {
  return (await db.query(sql, params)).rows as R[];
}

export async function one<R = Record<string, any>>(db: Db, sql: string, params: unknown[] = []): Promise<R | undefined> {
  return (await db.query(sql, params)).rows[0] as R | undefined;
}

/**
 * `one` as a named statement: PostgreSQL parses and plans it once per connection instead of on every
 * call (for the statements every search sends). `name` must be unique to `sql`.
 */
/** `named`: false through a transaction pooler (PgBouncer), where a statement prepared on one server connection is unknown on the next */
export async function onePrepared<R = Record<string, any>>(db: Db, name: string, sql: string, params: unknown[], named = true): Promise<R | undefined> {
  return (await db.query(named ? { name, text: sql, values: params } : { text: sql, values: params })).rows[0] as R | undefined;
}

export async function run(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query(sql, params)).rowCount ?? 0;
}
