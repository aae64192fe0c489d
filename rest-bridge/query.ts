// Query strings with JSON:API bracket syntax: `page[number]=2&filter[status]=active` becomes
// { page: { number: '2' }, filter: { status: 'active' } }; `ids[]=a&ids[]=b` becomes an array.
// Objects have no prototype, so `__proto__[x]=1` cannot reach Object.prototype.
import { DomainError } from '../lib/errors.js';

export type QueryValue = string | string[] | QueryParams;
export interface QueryParams {
  [key: string]: QueryValue;
}

const MAX_DEPTH = 5;

/** `filter[price][min]` → ['filter', 'price', 'min']; `ids[]` → ['ids', '']; malformed → [whole key] */
export function splitKey(key: string): string[] {
  // every request parses its keys and routes read a dozen names: a scan, not a regular expression
  const open = key.indexOf('[');
  if (open <= 0 || key.lastIndexOf(']', open) >= 0) return [key];
  const parts = [key.slice(0, open)];
  for (let i = open; i < key.length; ) {
    if (key.charCodeAt(i) !== 0x5b /* [ */) return [key];
    let j = i + 1;
    while (j < key.length && key.charCodeAt(j) !== 0x5d /* ] */ && key.charCodeAt(j) !== 0x5b) j++;
    if (j >= key.length || key.charCodeAt(j) !== 0x5d) return [key];
    parts.push(key.slice(i + 1, j));
    if (parts.length > MAX_DEPTH + 1) return [key];
    i = j + 1;
  }
  return parts;
}

/** the split of the names routes read (string literals in their code), kept: a route reads them on every request */
const NAMES = new Map<string, readonly string[]>();
const NAMES_KEPT = 1000;

function nameParts(name: string): readonly string[] {
  let parts = NAMES.get(name);
  if (parts === undefined) {
    parts = splitKey(name);
    if (NAMES.size >= NAMES_KEPT) NAMES.clear();
    NAMES.set(name, parts);
  }
  return parts;
}

export function parseQuery(search: string): QueryParams {
  const out: QueryParams = Object.create(null);
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  for (const [key, value] of params) {
    const parts = splitKey(key);
    const append = parts.length > 1 && parts[parts.length - 1] === '';
    const path = append ? parts.slice(0, -1) : parts;
    let node = out;
    for (const p of path.slice(0, -1)) {
      // a nested key wins over a scalar of the same name (`a=1&a[b]=2`): the structured form is what routes read
      if (!isParams(node[p])) node[p] = Object.create(null) as QueryParams;
      node = node[p] as QueryParams;
    }
    const k = path[path.length - 1];
    const cur = node[k];
    if (append) node[k] = Array.isArray(cur) ? [...cur, value] : typeof cur === 'string' ? [cur, value] : [value];
    else if (!isParams(cur)) node[k] = value; // repeated scalar keys: the last one wins
  }
  return out;
}

function isParams(v: QueryValue | undefined): v is QueryParams {
  return typeof v === 'object' && !Array.isArray(v);
}

/** The value at a bracket name (`page[size]`), when it is a single string. */
export function getParam(query: QueryParams, name: string): string | undefined {
  let node: QueryValue | undefined = query;
  for (const p of nameParts(name)) {
    if (!node || typeof node === 'string' || Array.isArray(node)) return undefined;
    node = node[p];
  }
  if (Array.isArray(node)) return node[node.length - 1];
  return typeof node === 'string' ? node : undefined;
}

/**
 * An integer query parameter. Absent or empty → the default; anything else that is not an
 * integer within [min, max] → 400 BAD_REQUEST naming the parameter as the client wrote it.
 */
export function intParam(query: QueryParams, name: string, opts: { default: number; min?: number; max?: number }): number {
  const raw = getParam(query, name);
  if (raw === undefined || raw === '') return opts.default;
  return inRange(/^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN, name, opts);
}

/** An integer attribute of a body, as intParam reads a query parameter: absent or null → the default. */
export function intAttribute(value: unknown, name: string, opts: { default: number; min?: number; max?: number }): number {
  if (value === undefined || value === null) return opts.default;
  return inRange(typeof value === 'number' ? value : NaN, name, opts);
}

function inRange(n: number, name: string, opts: { min?: number; max?: number }): number {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = opts;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = opts.max !== undefined ? `from ${min} to ${max}` : `>= ${min}`;
    throw new DomainError('BAD_REQUEST', `${name} must be an integer ${range}`, { parameter: name });
  }
  return n;
}

/** A boolean query parameter: true/false (also 1/0). Absent or empty → the default; anything else → 400 naming it. */
export function boolParam(query: QueryParams, name: string, fallback = false): boolean {
  const raw = getParam(query, name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new DomainError('BAD_REQUEST', `${name} must be true or false`, { parameter: name });
}

/**
 * A comma list parameter (`include=children,products`): the distinct names, each one of `allowed`;
 * an unknown name → 400 naming the parameter and listing the allowed ones.
 */
export function listParam(query: QueryParams, name: string, allowed: readonly string[]): Set<string> {
  const raw = getParam(query, name);
  const names = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length) throw new DomainError('BAD_REQUEST', `${name} takes a comma list of ${allowed.join(', ')} (got ${unknown.join(', ')})`, { parameter: name });
  return new Set(names);
}
