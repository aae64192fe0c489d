// One object's camelCase keys → snake_case, per object shape compiled once. A GraphQL result's
// objects of one selection all have the same keys in the same order (a page of 100 products: 100
// objects of one shape, each with nested objects of a few more), so the bridge compiles, per shape,
// a function that builds the converted object as one object literal. That is 5–7 times faster than
// adding the keys one by one (V8 creates a literal with all its properties at once, and the stores
// are not megamorphic), and it is the bulk of a list response's mapping (docs/performance.md).
// Only keys that are GraphQL names are compiled (they come from the operation's selection), and the
// number of shapes is bounded; anything else takes the generic loop.
import { restName } from './naming.js';

/** `convert` renders each value (nested objects, lists); the result has the converted keys of `value`. */
export type ShapeConverter = (value: Record<string, unknown>, convert: (v: unknown) => unknown) => Record<string, unknown>;

interface Shape {
  keys: readonly string[];
  omit: ReadonlySet<string> | undefined;
  omitId: boolean;
  build: ShapeConverter;
}

/** a GraphQL name not starting with `__` (`__proto__` in a literal would set the prototype); `__typename` is left out anyway */
const COMPILABLE = (k: string) => k === '__typename' || (/^[A-Za-z_][_0-9A-Za-z]*$/.test(k) && !k.startsWith('__'));
/** shapes compiled at most (a schema's selections have a few hundred); past it, the generic loop */
const MAX_SHAPES = 4000;

/** compiled shapes by their first key, then their last (keys are interned strings: no key is built per lookup) */
const shapes = new Map<string, Map<string, Shape[]>>();
let compiled = 0;

/**
 * The converter of objects with exactly `keys` (in order), leaving out `__typename`, `omit`'s keys
 * and, with `omitId`, `id`; undefined when the shape is not compiled (keys that are not GraphQL
 * names, or too many shapes).
 */
export function shapeConverter(keys: readonly string[], omit: ReadonlySet<string> | undefined, omitId: boolean): ShapeConverter | undefined {
  const n = keys.length;
  const first = n ? keys[0] : '';
  const last = n ? keys[n - 1] : '';
  let byLast = shapes.get(first);
  const list = byLast?.get(last);
  if (list) {
    next: for (const s of list) {
      if (s.keys.length !== n || s.omit !== omit || s.omitId !== omitId) continue;
      for (let i = 0; i < n; i++) if (s.keys[i] !== keys[i]) continue next;
      return s.build;
    }
  }
  if (compiled >= MAX_SHAPES || !keys.every(COMPILABLE)) return undefined;
  const shape: Shape = { keys: [...keys], omit, omitId, build: compile(keys, omit, omitId) };
  compiled++;
  if (list) list.push(shape);
  else {
    if (!byLast) shapes.set(first, (byLast = new Map()));
    byLast.set(last, [shape]);
  }
  return shape.build;
}

function compile(keys: readonly string[], omit: ReadonlySet<string> | undefined, omitId: boolean): ShapeConverter {
  // keys are GraphQL names (checked above) and written as JSON string literals: nothing but a name reaches the source
  const fields = keys
    .filter((k) => k !== '__typename' && !(omitId && k === 'id') && !omit?.has(k))
    .map((k) => `${JSON.stringify(restName(k))}: convert(value[${JSON.stringify(k)}])`);
  return new Function('value', 'convert', `return { ${fields.join(', ')} };`) as ShapeConverter;
}
