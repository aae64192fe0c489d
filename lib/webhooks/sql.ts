// The statements of lib/webhooks run on whatever the caller's transaction runs on: a MikroORM
// EntityManager (inside em.transactional, its transaction) or a pg client (a hand-written
// transaction). Both are reduced to one function taking `?` placeholders.
import type { EntityManager } from '@mikro-orm/postgresql';

export type Row = Record<string, any>;

/** Runs one statement (`?` placeholders) and returns its rows. */
export type Sql = (statement: string, params?: unknown[]) => Promise<Row[]>;

/** Anything with pg's `query(text, values)`: a Pool or a PoolClient. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

export type SqlSource = EntityManager | PgQueryable | Sql;

function isEntityManager(s: SqlSource): s is EntityManager {
  return typeof (s as EntityManager).getMetadata === 'function';
}

/** `?` → `$1, $2, …` for pg (the statements here never use `?` for anything else). */
export function numbered(statement: string): string {
  let n = 0;
  return statement.replace(/\?/g, () => `$${++n}`);
}

export function toSql(source: SqlSource): Sql {
  if (typeof source === 'function') return source;
  if (isEntityManager(source)) return async (statement, params = []) => (await source.execute(statement, params as unknown[], 'all')) as Row[];
  return async (statement, params = []) => (await source.query(numbered(statement), params)).rows;
}

/** `"schema"."table"` of a lib table in the caller's schema. */
export function qualified(schema: string, table: string): string {
  return `"${schema}"."${table}"`;
}
