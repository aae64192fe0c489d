// One aggregate, one module: what an aggregate brings to its subgraph (entities, resolvers, reference
// resolvers, per-request DataLoaders) in one shape. A subgraph lists its modules; composeModules
// merges them into the fields of its SubgraphDefinition, the loaders of every module into one
// `ctx.loaders` object per request.
import type { SubgraphContext, SubgraphDefinition } from './subgraph.js';

type Entities = Extract<SubgraphDefinition['entities'], readonly unknown[]>;
type ReferenceResolvers = NonNullable<SubgraphDefinition['referenceResolvers']>;

export interface SubgraphModule<C extends SubgraphContext = SubgraphContext> {
  /** the aggregate (its folder's name) */
  name: string;
  /** MikroORM entities of the aggregate's tables */
  entities?: Entities;
  /** type-graphql resolver classes (a field the aggregate adds to another type included) */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers?: Function[];
  /** `__resolveReference` of the federated entities the aggregate owns */
  referenceResolvers?: ReferenceResolvers;
  /**
   * The aggregate's DataLoaders for one request, given that request's context (whose `loaders` is the
   * merged object, so one loader may use another's). Each name is declared once in the subgraph.
   */
  loaders?: (ctx: C) => object;
}

export interface ComposedModules<L> {
  entities: Entities;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[];
  referenceResolvers: ReferenceResolvers;
  createLoaders(base: object): L;
}

/**
 * The SubgraphDefinition fields of `modules`. A module or reference type listed twice throws here (at
 * start); a loader name two modules declare throws when the first request's loaders are made.
 */
export function composeModules<L extends object, C extends SubgraphContext<L> = SubgraphContext<L>>(modules: readonly SubgraphModule<C>[]): ComposedModules<L> {
  const names = new Set<string>();
  const referenceResolvers: ReferenceResolvers = {};
  for (const m of modules) {
    if (names.has(m.name)) throw new Error(`module ${m.name} is listed twice`);
    names.add(m.name);
    for (const [type, r] of Object.entries(m.referenceResolvers ?? {})) {
      if (referenceResolvers[type]) throw new Error(`two modules resolve references to ${type} (one is ${m.name})`);
      referenceResolvers[type] = r;
    }
  }
  let checked = false;
  return {
    entities: modules.flatMap((m) => [...(m.entities ?? [])]) as Entities,
    resolvers: modules.flatMap((m) => m.resolvers ?? []),
    referenceResolvers,
    createLoaders(base) {
      const loaders = {} as L;
      // the loaders see the request's context as resolvers will: the same fields, these loaders
      const ctx = { ...base, loaders } as C;
      for (const m of modules) {
        const own = m.loaders?.(ctx);
        if (!own) continue;
        if (!checked) {
          const clash = Object.keys(own).find((k) => k in loaders);
          if (clash) throw new Error(`loader ${clash} of module ${m.name} is declared by another module too`);
        }
        Object.assign(loaders, own);
      }
      checked = true;
      return loaders;
    },
  };
}
