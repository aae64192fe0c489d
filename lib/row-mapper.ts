// Raw rows to plain objects by the entity's own metadata: what a read-only statement returns (a page
// of products, a page's variants) is mapped without the ORM's hydration and identity map, and without
// a mapper written by hand, so a new column of an entity reaches these reads with no further line.
import { ReferenceKind, type EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

type Convert = (v: unknown) => unknown;

/** A JSON column arrives parsed from pg, or as text (a driver without the json parser, json_agg's rows as text). */
const json: Convert = (v) => (typeof v === 'string' ? JSON.parse(v) : (v ?? null));
/** bigint and numeric arrive as strings */
const number: Convert = (v) => (v == null ? null : Number(v));
/** a Date from pg, an ISO string inside JSON (json_agg) */
const date: Convert = (v) => (v == null ? null : v instanceof Date ? v : new Date(v as string));
const plain: Convert = (v) => v ?? null;

function converter(columnType: string): Convert {
  const t = columnType.toLowerCase();
  if (t === 'json' || t === 'jsonb') return json;
  if (/^(bigint|int|integer|smallint|int[248]|numeric|decimal|real|double precision|float[48]?)\b/.test(t)) return number;
  if (t.startsWith('timestamp') || t === 'date') return date;
  return plain;
}

const mappers = new WeakMap<EntityMetadata, (r: Record<string, unknown>) => unknown>();

/**
 * The mapper of `meta`'s rows: its one-column properties as (property, column, conversion), compiled
 * into one object literal (as rest-bridge/snake-shapes.ts compiles a shape). Every row's object then
 * has its final shape at once: a loop adding ~40 properties to `{}` one by one ran a keyed store per
 * property and grew the object's property store again and again, ~1 µs a row against ~30 ns (a page
 * of products on every list request). Names and columns come from the entity's metadata and are
 * written as JSON string literals.
 */
function mapperOf(meta: EntityMetadata): (r: Record<string, unknown>) => unknown {
  const cols = Object.values(meta.properties)
    // scalars, and references kept as their key (`mapToPk`, as `productId`): one column each
    .filter((p) => (p.kind === ReferenceKind.SCALAR || (p.kind === ReferenceKind.MANY_TO_ONE && p.mapToPk)) && p.persist !== false && p.fieldNames?.length === 1)
    .map((p) => ({ name: p.name, column: p.fieldNames[0]!, convert: converter(p.columnTypes?.[0] ?? '') }));
  const fields = cols.map((c, i) => `${JSON.stringify(c.name)}: convert[${i}](r[${JSON.stringify(c.column)}])`);
  const compile = new Function('convert', `return (r) => ({ ${fields.join(', ')} });`) as (convert: Convert[]) => (r: Record<string, unknown>) => unknown;
  return compile(cols.map((c) => c.convert));
}

/**
 * `(row) => T` for the rows of `entity`'s table (snake_case columns, as `select x.*` or json_agg(x)
 * return them): each scalar property from its column, numbers, dates and JSON converted by the
 * column's type. Built once per entity.
 */
export function rowMapper<T>(em: EntityManager, entity: abstract new (...args: never[]) => unknown): (r: Record<string, unknown>) => T {
  const meta = em.getMetadata().get(entity as never) as EntityMetadata;
  let m = mappers.get(meta);
  if (!m) mappers.set(meta, (m = mapperOf(meta)));
  return m as (r: Record<string, unknown>) => T;
}
