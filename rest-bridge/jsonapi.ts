// JSON:API on the REST side, camelCase GraphQL on the other. Keys of structured values convert;
// free-form objects (product attributes, metadata, synonyms) keep the client's keys byte for byte,
// because they are data, not field names.
import { DomainError } from '../lib/errors.js';
import type { AttrSpec, ResourceObject } from './types.js';

export function camelCase(s: string): string {
  return s.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * GraphQL result → REST attributes: camelCase keys become snake_case, recursively, except below
 * the `opaque` paths (written with GraphQL names, dot-separated, arrays transparent:
 * 'metadata', 'settings.synonyms'). `__typename` never leaks.
 */
export function toSnakeKeys(value: unknown, opaque: readonly string[] = [], path = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => toSnakeKeys(v, opaque, path));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '__typename') continue;
    const p = path ? `${path}.${k}` : k;
    out[snakeCase(k)] = opaque.includes(p) ? v : toSnakeKeys(v, opaque, p);
  }
  return out;
}

/**
 * REST attributes → GraphQL input, driven by the route's attribute spec: only listed attributes
 * are taken (unknown ones are ignored, so a client echoing `id` or `created_at` back is harmless);
 * `json` values pass through untouched; structured values convert their keys.
 */
export function toGraphQLInput(attrs: Record<string, unknown>, spec: Record<string, AttrSpec>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(spec)) {
    if (!Object.prototype.hasOwnProperty.call(attrs, name)) continue;
    out[camelCase(name)] = convertValue(attrs[name], s);
  }
  return out;
}

function convertValue(v: unknown, spec: AttrSpec): unknown {
  if (typeof spec === 'string' || !isPlainObject(v)) return v; // wrong shapes are left for GraphQL coercion to name
  const out: Record<string, unknown> = {};
  for (const [k, inner] of Object.entries(v)) {
    const s = spec.properties[k];
    // unknown nested keys still convert, so GraphQL reports them as unknown fields (422 with the path)
    out[camelCase(k)] = s ? convertValue(inner, s) : inner;
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
  if (data.attributes === undefined) return {};
  if (!isPlainObject(data.attributes)) throw new DomainError('BAD_REQUEST', 'data.attributes must be an object', { parameter: 'data.attributes' });
  return data.attributes;
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
 * attributes. `uniqueId` also repeats the id as the `unique_id` attribute (platform resources list it
 * among their fields).
 */
export function resource(
  type: string,
  node: Record<string, unknown>,
  opts: { opaque?: readonly string[]; uniqueId?: boolean } = {},
): ResourceObject {
  const { id, ...rest } = node;
  const attributes = toSnakeKeys(rest, opts.opaque ?? []) as Record<string, unknown>;
  return { id: String(id), type, attributes: opts.uniqueId ? { unique_id: id, ...attributes } : attributes };
}
