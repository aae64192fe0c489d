// Reading document fields by (dotted) path, as Meilisearch flattens nested objects: "details.rating"
// reaches { details: { rating } } and also [{ rating }, { rating }] through arrays.
import type { Document } from './types.js';

/** Raw value at `path` (arrays of objects are mapped), or undefined. A literal key with dots wins. */
export function valueAt(doc: Document, path: string): unknown {
  if (path in doc) return doc[path];
  if (!path.includes('.')) return undefined;
  let cur: unknown[] = [doc];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const v of cur) collect(v, part, next);
    if (!next.length) return undefined;
    cur = next;
  }
  return cur.length === 1 ? cur[0] : cur;
}

function collect(v: unknown, key: string, out: unknown[]): void {
  if (Array.isArray(v)) for (const e of v) collect(e, key, out);
  else if (v && typeof v === 'object' && key in (v as object)) out.push((v as Record<string, unknown>)[key]);
}

export type Leaf = string | number | boolean | null;

/**
 * Visit the primitive leaves under `value`, named by their dotted path below `path`.
 * `onContainer` sees every path that holds something (for EXISTS) and whether it is an empty array/object/string.
 */
export function visitLeaves(
  value: unknown,
  path: string,
  onLeaf: (path: string, leaf: Leaf) => void,
  onPath?: (path: string, empty: boolean, isNull: boolean) => void,
): void {
  if (value === undefined) return;
  if (value === null) {
    onPath?.(path, false, true);
    return;
  }
  if (Array.isArray(value)) {
    onPath?.(path, value.length === 0, false);
    for (const e of value) {
      if (e !== null && typeof e === 'object' && !Array.isArray(e)) visitObject(e as Record<string, unknown>, path, onLeaf, onPath);
      else if (Array.isArray(e)) visitLeaves(e, path, onLeaf);
      else if (e !== undefined) onLeaf(path, e as Leaf);
    }
    return;
  }
  if (typeof value === 'object') {
    onPath?.(path, Object.keys(value).length === 0, false);
    visitObject(value as Record<string, unknown>, path, onLeaf, onPath);
    return;
  }
  onPath?.(path, value === '', false);
  onLeaf(path, value as Leaf);
}

function visitObject(
  obj: Record<string, unknown>,
  path: string,
  onLeaf: (path: string, leaf: Leaf) => void,
  onPath?: (path: string, empty: boolean, isNull: boolean) => void,
): void {
  for (const [k, v] of Object.entries(obj)) visitLeaves(v, `${path}.${k}`, onLeaf, onPath);
}

/** Strings of a searchable value in reading order; numbers and booleans are searchable as text too. */
export function visitText(value: unknown, onText: (text: string) => void): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') onText(value);
  else if (typeof value === 'number' || typeof value === 'boolean') onText(String(value));
  else if (Array.isArray(value)) for (const e of value) visitText(e, onText);
  else if (typeof value === 'object') for (const v of Object.values(value)) visitText(v, onText);
}

/** Is `attr` covered by a configured list ('*' covers all; "a" covers "a.b")? */
export function covered(list: readonly string[], attr: string): boolean {
  for (const f of list) if (f === '*' || f === attr || attr.startsWith(`${f}.`)) return true;
  return false;
}
