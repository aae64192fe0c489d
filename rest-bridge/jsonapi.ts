// JSON:API on the REST side, camelCase GraphQL on the other. Keys of structured values convert;
// free-form values (a JSON or JSONObject scalar in the schema: product attributes, metadata,
// synonyms) keep the client's keys byte for byte, because they are data, not field names. Which
// values are which is derived from the schema (derive.ts), never listed per route.
import { DomainError } from '../lib/errors.js';
import { graphqlName, restName } from './naming.js';
import { shapeConverter } from './snake-shapes.js';
import type { AttrFields, AttrSpec, ResourceObject } from './types.js';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Response keys whose values are free-form JSON (`true`), and below which such keys sit. */
export interface FreeFormTree {
  [responseKey: string]: FreeFormTree | true;
}

/** Free-form values of the current results, by identity: toSnakeKeys returns them untouched. */
const FREE_FORM = new WeakSet<object>();

/**
 * Remember the free-form values of an operation's result (the handler calls this with the route's
 * derived tree before the route renders), so resource() keeps their keys wherever they end up.
 */
export function markFreeForm(value: unknown, tree: FreeFormTree): void {
  if (Array.isArray(value)) {
    for (const v of value) markFreeForm(v, tree);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, sub] of entriesOf(tree)) {
    const v = value[key];
    if (typeof v !== 'object' || v === null) continue;
    if (sub === true) {
      FREE_FORM.add(v);
      if (Array.isArray(v)) for (const item of v) if (typeof item === 'object' && item !== null) FREE_FORM.add(item);
    } else markFreeForm(v, sub);
  }
}

/** a tree's entries, listed once (every object of a page walks the same tree) */
const ENTRIES = new WeakMap<FreeFormTree, [string, FreeFormTree | true][]>();
function entriesOf(tree: FreeFormTree): [string, FreeFormTree | true][] {
  let e = ENTRIES.get(tree);
  if (!e) ENTRIES.set(tree, (e = Object.entries(tree)));
  return e;
}

/**
 * GraphQL result → REST attributes: camelCase keys become snake_case (naming.ts), recursively,
 * except inside values marked free-form (markFreeForm). `__typename` never leaks.
 */
export function toSnakeKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || FREE_FORM.has(value)) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toSnakeKeys(value[i]);
    return out;
  }
  return snakeObject(value as Record<string, unknown>);
}

/** One object's keys converted (every response renders thousands: by its compiled shape, snake-shapes.ts). */
function snakeObject(value: Record<string, unknown>, omit?: ReadonlySet<string>, omitId = false): Record<string, unknown> {
  const keys = Object.keys(value);
  const build = shapeConverter(keys, omit, omitId);
  if (build) return build(value, toSnakeKeys);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (k === '__typename' || (omitId && k === 'id') || omit?.has(k)) continue;
    const name = restName(k);
    // a data key `__proto__` (JSON.parse makes it an own key) stays a key, never the prototype
    if (name === '__proto__') Object.defineProperty(out, name, { value: toSnakeKeys(value[k]), enumerable: true, writable: true, configurable: true });
    else out[name] = toSnakeKeys(value[k]);
  }
  return out;
}

/**
 * REST attributes → GraphQL input, driven by the route's derived fields: only known attributes
 * are taken (unknown ones are ignored, so a client echoing `id` or `created_at` back is harmless);
 * `json` values pass through untouched; structured values convert their keys.
 */
export function toGraphQLInput(attrs: Record<string, unknown>, fields: AttrFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(attrs, name)) continue;
    out[f.graphql] = convertValue(attrs[name], f.spec);
  }
  return out;
}

function convertValue(v: unknown, spec: AttrSpec): unknown {
  if (spec.kind === 'list') return Array.isArray(v) ? v.map((x) => convertValue(x, spec.items)) : v;
  if (spec.kind !== 'object' || !isPlainObject(v)) return v; // wrong shapes are left for GraphQL coercion to name
  const out: Record<string, unknown> = {};
  for (const [k, inner] of Object.entries(v)) {
    const f = spec.fields[k];
    // unknown nested keys still convert, so GraphQL reports them as unknown fields (422 with the path)
    out[f ? f.graphql : graphqlName(k)] = f ? convertValue(inner, f.spec) : inner;
  }
  return out;
}

/**
 * Validate a JSON:API request document and return its attributes. Missing or malformed `data` →
 * 400 BAD_REQUEST; a `data.type` other than the endpoint's → 409 INVALID_RESOURCE_TYPE (JSON:API
 * answers a type conflict with 409).
 */
export function parseEnvelope(body: unknown, expectedType: string, opts: { inData?: boolean } = {}): Record<string, unknown> {
  const shape = opts.inData
    ? 'the body must be a document { "data": { ... } }'
    : 'the body must be a JSON:API document { "data": { "type": ..., "attributes": { ... } } }';
  if (!isPlainObject(body) || body.data === undefined) throw new DomainError('BAD_REQUEST', `data is required: ${shape}`, { parameter: 'data' });
  const data = body.data;
  if (!isPlainObject(data)) throw new DomainError('BAD_REQUEST', `data must be an object: ${shape}`, { parameter: 'data' });
  if (opts.inData) return inDataFields(data, expectedType);
  if (typeof data.type !== 'string' || data.type === '') {
    throw new DomainError('BAD_REQUEST', `data.type is required and must be "${expectedType}"`, { parameter: 'data.type' });
  }
  if (data.type !== expectedType) {
    throw new DomainError('INVALID_RESOURCE_TYPE', `data.type must be "${expectedType}" for this endpoint (got "${data.type}")`, {
      parameter: 'data.type',
    });
  }
  if (data.attributes !== undefined && !isPlainObject(data.attributes)) throw new DomainError('BAD_REQUEST', 'data.attributes must be an object', { parameter: 'data.attributes' });
  const attributes = (data.attributes ?? {}) as Record<string, unknown>;
  return data.relationships === undefined ? attributes : { ...attributes, ...relationshipIds(data.relationships) };
}

/** `categories` → `category_ids`, `products` → `product_ids`: the attribute a to-many relationship fills. */
export function relationshipAttribute(name: string): string {
  const singular = name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
  return `${singular}_ids`;
}

/**
 * Relationships of a request as the id attributes they fill: to-many
 * (`relationships.categories.data: [{ type: "categories", id }]`) → `category_ids`, an entry of
 * another type → 409 naming it; to-one (`relationships.product.data: { type, id }` or null) →
 * `product_id`. A relationship with links only (as answered) fills nothing, so a client sending a
 * resource back as it was read is served; like attributes, ids the endpoint does not take are ignored.
 */
function relationshipIds(rel: unknown): Record<string, unknown> {
  if (!isPlainObject(rel)) throw new DomainError('BAD_REQUEST', 'data.relationships must be an object', { parameter: 'data.relationships' });
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rel)) {
    const parameter = `data.relationships.${name}.data`;
    const data = isPlainObject(value) ? value.data : undefined;
    if (isPlainObject(value) && data === undefined && (value.links !== undefined || value.meta !== undefined)) continue;
    if (data === null) {
      out[`${name}_id`] = null;
      continue;
    }
    if (isPlainObject(data)) {
      if (typeof data.id !== 'string' || typeof data.type !== 'string') throw new DomainError('BAD_REQUEST', `${parameter} must be { type, id }`, { parameter });
      out[`${name}_id`] = data.id;
      continue;
    }
    if (!Array.isArray(data)) throw new DomainError('BAD_REQUEST', `${parameter} must be { type, id }, an array of them, or null`, { parameter });
    out[relationshipAttribute(name)] = data.map((item, i) => {
      if (!isPlainObject(item) || typeof item.id !== 'string') throw new DomainError('BAD_REQUEST', `${parameter}[${i}] must be { type, id }`, { parameter: `${parameter}[${i}]` });
      if (item.type !== name) throw new DomainError('INVALID_RESOURCE_TYPE', `${parameter}[${i}].type must be "${name}"`, { parameter: `${parameter}[${i}].type` });
      return item.id;
    });
  }
  return out;
}

/**
 * Bodies the spec writes with their fields right under `data` (`data.product_ids`, `data.tiers`):
 * `type` is optional there but must match when given; fields in `data.attributes` are read as well,
 * so a client that wraps them the JSON:API way is served too.
 */
function inDataFields(data: Record<string, unknown>, expectedType: string): Record<string, unknown> {
  if (data.type !== undefined && data.type !== expectedType) {
    throw new DomainError('INVALID_RESOURCE_TYPE', `data.type must be "${expectedType}" for this endpoint (got ${JSON.stringify(data.type)})`, { parameter: 'data.type' });
  }
  const { type: _type, id: _id, attributes, ...fields } = data;
  if (attributes !== undefined && !isPlainObject(attributes)) throw new DomainError('BAD_REQUEST', 'data.attributes must be an object', { parameter: 'data.attributes' });
  return { ...(attributes ?? {}), ...fields };
}

/**
 * One GraphQL object → one JSON:API resource: `id` moves to `data.id`, the rest become snake_case
 * attributes (free-form values keep their keys, see markFreeForm). `uniqueId` also repeats the id
 * as the `unique_id` attribute (platform resources list it among their fields).
 */
/** `omit`: keys of `node` rendered elsewhere (a product's nested relations), not as attributes */
export function resource(type: string, node: Record<string, unknown>, opts: { uniqueId?: boolean; omit?: ReadonlySet<string> } = {}): ResourceObject {
  const id = node.id;
  const attributes = snakeObject(node, opts.omit, true);
  return { id: String(id), type, attributes: opts.uniqueId ? { unique_id: id, ...attributes } : attributes };
}
