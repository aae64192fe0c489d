// The one SQL seam of the queue: a pg pool, pool client or client (hand-written SQL paths), or a
// MikroORM EntityManager (inside em.transactional, its transaction). Statements are written with
// pg's $n placeholders and rewritten to `?` for MikroORM.
import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';

export type SqlClient = pg.Pool | pg.PoolClient | pg.Client | EntityManager;

function isPg(db: SqlClient): db is pg.Pool | pg.PoolClient | pg.Client {
  return typeof (db as { query?: unknown }).query === 'function';
}

export async function sqlRows<R>(db: SqlClient, sql: string, params: unknown[] = []): Promise<R[]> {
  if (isPg(db)) return (await db.query(sql, params)).rows as R[];
  const ordered: unknown[] = [];
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return '?';
  });
  return (await db.execute(text, ordered, 'all')) as R[];
}

export async function sqlOne<R>(db: SqlClient, sql: string, params: unknown[] = []): Promise<R | undefined> {
  return (await sqlRows<R>(db, sql, params))[0];
}

/** `"schema"."jobs"`; the schema is a subgraph's own (a fixed identifier, never user input). */
export function jobsTable(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`jobs: bad schema name ${schema}`);
  return `"${schema}"."jobs"`;
}

/** The NOTIFY channel a schema's workers LISTEN on. */
export function jobsChannel(schema: string): string {
  return `jobs_${schema}`;
}
