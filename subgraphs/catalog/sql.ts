// Raw SQL helpers of the catalog subgraph. Raw statements name the tenant explicitly (the ORM's
// tenant filter does not apply to them): every repository passes `requireApp(ctx)`'s partition.
import type { EntityManager } from '@mikro-orm/postgresql';

/** The quoted schema-qualified table of an entity, e.g. "catalog"."categories". */
export function tableOf(em: EntityManager, entity: abstract new (...args: never[]) => unknown): string {
  const meta = em.getMetadata().get(entity as never);
  return tableIn(em, entity, meta.tableName);
}

/** A table without an entity (kept by SQL alone, e.g. by triggers) in the schema of `beside`'s table. */
export function tableIn(em: EntityManager, beside: abstract new (...args: never[]) => unknown, table: string): string {
  const meta = em.getMetadata().get(beside as never);
  return `"${meta.schema ?? em.config.get('schema')}"."${table}"`;
}

/** Serialise writes of one kind within one app partition until the transaction ends. */
export async function lockPartition(em: EntityManager, kind: string, appId: string, environment: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`${kind}:${appId}:${environment}`], 'all');
}

/**
 * A list parameter of a raw statement. em.execute expands a JS array into a comma list, so lists
 * travel as one JSON text: write `in (select jsonb_array_elements_text(?::jsonb))` (see ANY_TEXT).
 */
export function jsonList(values: readonly unknown[]): string {
  return JSON.stringify(values);
}

/** `x in ${ANY_TEXT}` with jsonList(values) as the parameter. */
export const ANY_TEXT = '(select jsonb_array_elements_text(?::jsonb))';


/**
 * The condition joining a child row (`alias`) to its product (`product`, default `p`) within the
 * product's partition: what a relation's JSON column in the product page's statement selects by.
 */
export function ofProduct(alias: string, product = 'p'): string {
  return `${alias}.product_id = ${product}.id and ${alias}.app_id = ${product}.app_id and ${alias}.environment = ${product}.environment`;
}

/** The rows of `table` (aliased `x`) of the products `ids` in a partition, by product then `order`. */
export async function rowsOfProducts(em: EntityManager, table: string, part: { appId: string; environment: string }, ids: readonly string[], order: string): Promise<Record<string, unknown>[]> {
  const sql = `select x.* from ${table} x where x.app_id = ? and x.environment = ? and x.product_id in ${ANY_TEXT} order by x.product_id, ${order}`;
  return (await em.execute(sql, [part.appId, part.environment, jsonList(ids)], 'all')) as Record<string, unknown>[];
}
