// The statements of lib/webhooks run on whatever the caller's transaction runs on: a MikroORM
// EntityManager (inside em.transactional, its transaction) or a pg pool/client. The seam that tells
// them apart is lib/jobs' (sqlRows); this reduces either to one function taking `?` placeholders.
import { sqlRows, type SqlClient } from '../jobs/sql.js';

export type Row = Record<string, any>;

/** Runs one statement (`?` placeholders) and returns its rows. */
export type Sql = (statement: string, params?: unknown[]) => Promise<Row[]>;

export type SqlSource = SqlClient | Sql;

/** `?` → `$1, $2, …` (the statements here never use `?` for anything else). */
function numbered(statement: string): string {
  let n = 0;
  return statement.replace(/\?/g, () => `$${++n}`);
}

export function toSql(source: SqlSource): Sql {
  if (typeof source === 'function') return source;
  return (statement, params = []) => sqlRows<Row>(source, numbered(statement), params);
}

/** `"schema"."table"` of a lib table in the caller's schema. */
export function qualified(schema: string, table: string): string {
  return `"${schema}"."${table}"`;
}
