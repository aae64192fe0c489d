// Synchronous parameters for type-graphql resolvers. type-graphql builds a resolver's parameters
// through `validateArg`, which is async even with validation off (`validate: false`): every resolver
// with an @Arg returns a promise, so a field resolver like `Product.variants(first: 5)` puts each
// product of a page on graphql-js's promise path, even when its value is already at hand. For the
// resolvers whose parameters need no conversion (scalar and enum args, context, info, an untyped or
// already typed root), this builds the parameters directly and calls the method: the same call
// type-graphql makes, without the promise. Other resolvers (input-type args, @Args classes, custom
// decorators) keep type-graphql's handler, as does a call whose root is not yet an instance of the
// declared root type (type-graphql would convert it).
import { GraphQLScalarType, type GraphQLResolveInfo } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Meta = ReturnType<typeof getMetadataStorage>;
type ParamMeta = Meta['params'][number];
type Handler = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: GraphQLResolveInfo) => unknown;
type Param = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: GraphQLResolveInfo) => unknown;

const PLAIN = new Set<unknown>([String, Number, Boolean, Date]);

/** The getter of one parameter, or null when only type-graphql can build it. */
function plainParam(meta: Meta, p: ParamMeta): Param | null {
  switch (p.kind) {
    case 'arg': {
      const t = p.getType();
      const passThrough = t instanceof GraphQLScalarType || PLAIN.has(t) || meta.enums.some((e) => e.enumObj === t);
      const name = p.name;
      return passThrough ? (_r, args) => args[name] : null;
    }
    case 'context': {
      const prop = p.propertyName;
      return prop ? (_r, _a, ctx) => (ctx as Record<string, unknown>)[prop] : (_r, _a, ctx) => ctx;
    }
    case 'info':
      return (_r, _a, _c, info) => info;
    case 'root':
      // a declared root class is checked per call (rootClass below)
      return p.propertyName ? null : (root) => root;
    default:
      return null;
  }
}

/** The class a root parameter declares, when type-graphql would convert the root to it. */
function rootClass(p: ParamMeta): (abstract new (...a: never[]) => unknown) | undefined {
  if (p.kind !== 'root') return undefined;
  const T = p.getType?.();
  return typeof T === 'function' && !PLAIN.has(T) ? (T as abstract new (...a: never[]) => unknown) : undefined;
}

/**
 * Replace, in a resolver map from type-graphql's createResolversMap, the query, mutation and field
 * resolvers of `classes` whose parameters are plain, by a direct call of the method.
 */
export function plainParamResolvers(map: Record<string, Record<string, unknown>>, classes: readonly unknown[]): Record<string, Record<string, unknown>> {
  const meta = getMetadataStorage();
  const own = new Set(classes);
  const instances = new Map<unknown, Record<string, (...a: unknown[]) => unknown>>();
  const instanceOf = (target: unknown) => {
    let it = instances.get(target);
    if (!it) instances.set(target, (it = new (target as new () => Record<string, (...a: unknown[]) => unknown>)()));
    return it;
  };
  type Entry = { target: unknown; methodName: string; schemaName: string; middlewares?: unknown[] };
  const entries: [string | undefined, Entry][] = [
    ...meta.queries.map((q): [string, Entry] => ['Query', q]),
    ...meta.mutations.map((m): [string, Entry] => ['Mutation', m]),
    ...meta.fieldResolvers.filter((f) => f.kind === 'external').map((f): [string | undefined, Entry] => [meta.objectTypes.find((o) => o.target === f.getObjectType?.())?.name, f]),
  ];
  for (const [type, m] of entries) {
    // @UseMiddleware runs inside type-graphql's handler: such resolvers keep it
    if (!type || !own.has(m.target) || m.middlewares?.length) continue;
    const original = map[type]?.[m.schemaName] as Handler | undefined;
    if (typeof original !== 'function') continue;
    const params = meta.params.filter((p) => p.target === m.target && p.methodName === m.methodName).sort((a, b) => a.index - b.index);
    const getters = params.map((p) => plainParam(meta, p));
    if (getters.some((g) => g === null)) continue;
    const instance = instanceOf(m.target);
    const method = instance[m.methodName];
    if (typeof method !== 'function') continue;
    const cls = params.map(rootClass).find(Boolean);
    const plain = getters as Param[];
    map[type]![m.schemaName] = ((root, args, ctx, info) => {
      if (cls && root != null && !(root instanceof cls)) return original(root, args, ctx, info);
      return method.apply(
        instance,
        plain.map((g) => g(root, args, ctx, info)),
      );
    }) satisfies Handler;
  }
  return map;
}
