// JSON:API on the REST side, camelCase GraphQL on the other. Keys of structured values convert;
// free-form values (a JSON or JSONObject scalar in the schema: product attributes, metadata,
// synonyms) keep the client's keys byte for byte, because they are data, not field names. Which
// values are which is derived from the schema (derive.ts), never listed per route.
import { DomainError } from '../lib/errors.js';
import { EXTRA_ATTRIBUTES_FIELD } from '../lib/extra-attributes.js';
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

/** What a request body carries: attributes the client set, and ids its relationships name. */
export interface RequestMembers {
  attributes: Record<string, unknown>;
  /** `category_ids`, `product_id`: from `data.relationships`; ids the endpoint does not take are ignored */
  linked: Record<string, unknown>;
}

/**
 * REST attributes → GraphQL input, driven by the route's derived fields. An attribute the endpoint
 * does not take is refused (422 VALIDATION_FAILED naming it), so a client learns that a value it
 * meant to set was not taken (`colour`, camelCase `shortDescription`). Ignored instead: `readOnly`,
 * attributes the resource answers with but does not take (`created_at`), so a resource read and
 * sent back is served; and `linked` relationship ids the endpoint does not take. `json` values pass
 * through untouched; structured values convert their keys (unknown nested keys are named by
 * GraphQL coercion). With `extra` (the input field of a resource that keeps attributes as given,
 * lib/extra-attributes.ts), unknown attributes are not refused: they go to that field as given,
 * and the service checks and stores them.
 */
export function toGraphQLInput(
  attrs: Record<string, unknown>,
  fields: AttrFields,
  opts: { linked?: Record<string, unknown>; readOnly?: ReadonlySet<string>; extra?: string } = {},
): Record<string, unknown> {
  const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  let extra: Record<string, unknown> | undefined;
  for (const name of Object.keys(attrs)) {
    if (has(fields, name) || opts.readOnly?.has(name)) continue;
    if (!opts.extra) throw unknownAttribute(name, fields);
    extra ??= {};
    Object.defineProperty(extra, name, { value: attrs[name], enumerable: true, writable: true, configurable: true });
  }
  const linked = opts.linked ?? {};
  const out: Record<string, unknown> = {};
  if (extra && opts.extra) out[opts.extra] = extra;
  for (const [name, f] of Object.entries(fields)) {
    if (has(attrs, name)) out[f.graphql] = convertValue(attrs[name], f.spec);
    else if (has(linked, name)) out[f.graphql] = convertValue(linked[name], f.spec);
  }
  return out;
}

function unknownAttribute(name: string, fields: AttrFields): DomainError {
  const snake = restName(name);
  const hint = snake !== name && Object.prototype.hasOwnProperty.call(fields, snake) ? ` (attributes are snake_case: did you mean ${snake}?)` : '';
  const known = Object.keys(fields);
  const list = known.length <= 30 ? `; this endpoint takes ${known.join(', ') || 'none'}` : '';
  return new DomainError('VALIDATION_FAILED', `${name} is not a known attribute${hint}${list}`, { parameter: name, reason: 'unknown' });
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

export interface EnvelopeOptions {
  /** the fields sit right under `data` (types.ts BodySpec.inData); `data.type` is then free */
  inData?: boolean;
  /** the document names no request type for this endpoint: any `data.type` is taken */
  anyType?: boolean;
  /** the endpoint's attributes: a plain body's `id` and `type` members are attributes only when listed here */
  attributes?: ReadonlySet<string>;
}

/**
 * Validate a request body and return what it carries. Two shapes are taken on every route:
 *  - a JSON:API document `{ "data": { "type", "attributes", "relationships"? } }` (or the fields right
 *    under `data` where the document writes them so); `data.type` must be the endpoint's where the
 *    document names it (409 INVALID_RESOURCE_TYPE otherwise, as JSON:API answers a type conflict),
 *    anything where it names none (action bodies: render, execute, agent context...);
 *  - a plain JSON object of the fields (`{ "content": "..." }`, `{ "placeholders": { ... } }`), as the
 *    documents show some bodies: any object without a `data` member. Its `id` and `type` members
 *    name the resource and are dropped unless the endpoint has attributes of those names.
 * Anything else → 400 BAD_REQUEST naming `data`.
 */
export function parseRequest(body: unknown, expectedType: string, opts: EnvelopeOptions = {}): RequestMembers {
  const shape = opts.inData
    ? 'the body must be a JSON object of the fields, or a document { "data": { ... } }'
    : 'the body must be a JSON object of the attributes, or a JSON:API document { "data": { "type": ..., "attributes": { ... } } }';
  if (!isPlainObject(body)) throw new DomainError('BAD_REQUEST', `a JSON object is required: ${shape}`, { parameter: 'data' });
  if (body.data === undefined) return { attributes: plainFields(body, opts.attributes), linked: {} };
  const data = body.data;
  if (!isPlainObject(data)) throw new DomainError('BAD_REQUEST', `data must be an object: ${shape}`, { parameter: 'data' });
  if (opts.inData) return { attributes: inDataFields(data), linked: {} };
  if (!opts.anyType) checkType(data.type, expectedType);
  else if (data.type !== undefined && (typeof data.type !== 'string' || data.type === '')) throw new DomainError('BAD_REQUEST', 'data.type must be a non-empty string when given', { parameter: 'data.type' });
  if (data.attributes !== undefined && !isPlainObject(data.attributes)) throw new DomainError('BAD_REQUEST', 'data.attributes must be an object', { parameter: 'data.attributes' });
  const attributes = (data.attributes ?? {}) as Record<string, unknown>;
  return { attributes, linked: data.relationships === undefined ? {} : relationshipIds(data.relationships) };
}

/** The attributes of a body, relationship ids merged in (the shape parseRequest reads, flattened). */
export function parseEnvelope(body: unknown, expectedType: string, opts: EnvelopeOptions = {}): Record<string, unknown> {
  const { attributes, linked } = parseRequest(body, expectedType, opts);
  return { ...attributes, ...linked };
}

function checkType(type: unknown, expectedType: string): void {
  if (typeof type !== 'string' || type === '') {
    throw new DomainError('BAD_REQUEST', `data.type is required and must be "${expectedType}"`, { parameter: 'data.type' });
  }
  if (type !== expectedType) {
    throw new DomainError('INVALID_RESOURCE_TYPE', `data.type must be "${expectedType}" for this endpoint (got "${type}")`, { parameter: 'data.type' });
  }
}

function plainFields(body: Record<string, unknown>, attributes: ReadonlySet<string> | undefined): Record<string, unknown> {
  const out = { ...body };
  for (const k of ['id', 'type']) if (!attributes?.has(k)) delete out[k];
  return out;
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
 * the document names no type for them, so `type` and `id` are dropped; fields in `data.attributes`
 * are read as well, so a client that wraps them the JSON:API way is served too.
 */
function inDataFields(data: Record<string, unknown>): Record<string, unknown> {
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
  if (EXTRA_REST in attributes) mergeExtra(attributes);
  return { id: String(id), type, attributes: opts.uniqueId ? { unique_id: id, ...attributes } : attributes };
}

const EXTRA_REST = restName(EXTRA_ATTRIBUTES_FIELD);

/**
 * Attributes kept as given (lib/extra-attributes.ts) are answered among the attributes, exactly as
 * given, after the documented ones; a documented attribute of the same name always wins.
 */
function mergeExtra(attributes: Record<string, unknown>): void {
  const extra = attributes[EXTRA_REST];
  delete attributes[EXTRA_REST];
  if (!isPlainObject(extra)) return;
  for (const [k, v] of Object.entries(extra)) {
    if (Object.prototype.hasOwnProperty.call(attributes, k) || k === 'id' || k === 'type') continue;
    Object.defineProperty(attributes, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
}
