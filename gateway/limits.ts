// Depth and cost limits, checked before execution. Cost model (documented in README):
// every field costs 1; a field returning a list multiplies its sub-selection's cost by its page
// argument (first | limit | pageSize | perPage) when given, else by DEFAULT_LIST_SIZE.
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type GraphQLOutputType,
  type SelectionNode,
  type SelectionSetNode,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';

export const DEFAULT_LIST_SIZE = 20;
/** Introspection (__schema, __type) has its own depth budget: the standard introspection query nests ~13 deep. */
export const MAX_INTROSPECTION_DEPTH = 20;
const PAGE_ARGS = new Set(['first', 'limit', 'pageSize', 'perPage', 'last']);

export interface OperationMeasure {
  depth: number;
  cost: number;
  /** depth of the deepest introspection selection (0 when none) */
  introspectionDepth?: number;
  /** aliased fields in the operation, fragments expanded (absent when none) */
  aliases?: number;
  /** __schema and __type fields in the operation, fragments expanded (absent when none) */
  introspections?: number;
}

/** Most aliased fields one operation may have (MAX_QUERY_ALIASES): aliases repeat work and answers at no cost to the client. */
export const DEFAULT_MAX_ALIASES = 100;
/**
 * Most __schema / __type fields one operation may have. One full schema costs the gateway ~10–15 ms
 * of CPU and ~65 KB of answer however it is asked (bench/hostile-cpu.ts): 100 aliased copies, within
 * the alias limit, cost 1.3 s. Tools ask once (GraphiQL, codegen) or for a few named types.
 */
export const MAX_INTROSPECTIONS = 3;

export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
): OperationMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    if (d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName)) operation ??= d;
  }
  if (!operation) return { depth: 0, cost: 0 };
  const root =
    operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  const valueOf = (v: ValueNode): unknown => {
    if (v.kind === Kind.INT) return Number(v.value);
    if (v.kind === Kind.BOOLEAN) return v.value;
    if (v.kind === Kind.VARIABLE) return variables[v.name.value];
    return undefined;
  };
  // A selection that @skip / @include leave out is not executed, so it costs nothing (an
  // operation can then carry optional includes without paying for them when they are off).
  const excluded = (sel: SelectionNode): boolean =>
    (sel.directives ?? []).some((d) => {
      const cond = d.arguments?.find((a) => a.name.value === 'if');
      if (!cond) return false;
      const v = valueOf(cond.value);
      return (d.name.value === 'skip' && v === true) || (d.name.value === 'include' && v === false);
    });

  let introspectionDepth = 0;
  // Fragments are measured once each and memoised (depth relative to the spread, cost, aliases): a
  // document whose fragments each spread the previous one twice would otherwise cost 2^n to measure.
  // Cycles cannot reach here (NoFragmentCycles runs first); `active` still guards against them.
  type Measure = { depth: number; cost: number; aliases: number; intro?: number };
  const memo = new Map<string, Measure>();
  const introMemo = new Map<string, Measure>();
  const active = new Set<string>();
  const spread = (name: string, table: Map<string, Measure>, measure: (f: FragmentDefinitionNode) => Measure): Measure | undefined => {
    const known = table.get(name);
    if (known) return known;
    const frag = fragments.get(name);
    if (!frag || active.has(name)) return undefined;
    active.add(name);
    const m = measure(frag);
    active.delete(name);
    table.set(name, m);
    return m;
  };

  // Introspection fields count 1 each (no list multiplier: the schema is finite) and their depth
  // (from __schema/__type = 1) is measured against MAX_INTROSPECTION_DEPTH, not the data depth limit.
  // `depth` is the depth of the selections in `set`, as in walk().
  const walkIntrospection = (set: SelectionSetNode, depth: number): Measure => {
    let maxDepth = depth;
    let cost = 0;
    let aliases = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const m = spread(sel.name.value, introMemo, (f) => walkIntrospection(f.selectionSet, 0));
        if (m) {
          maxDepth = Math.max(maxDepth, depth + m.depth);
          cost += m.cost;
          aliases += m.aliases;
        }
        continue;
      }
      const d = sel.kind === Kind.FIELD ? depth + 1 : depth;
      if (sel.kind === Kind.FIELD) {
        cost += 1;
        if (sel.alias) aliases += 1;
      }
      if (sel.selectionSet) {
        const child = walkIntrospection(sel.selectionSet, d);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
        aliases += child.aliases;
      }
    }
    return { depth: maxDepth, cost, aliases };
  };

  const walk = (set: SelectionSetNode, parent: GraphQLOutputType | null | undefined, depth: number): Measure => {
    let maxDepth = depth;
    let cost = 0;
    let aliases = 0;
    let intro = 0;
    const named = parent ? getNamedType(parent) : undefined;
    const fields = named && (isObjectType(named) || isInterfaceType(named)) ? named.getFields() : undefined;
    for (const sel of set.selections) {
      if (excluded(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        if (sel.alias) aliases += 1;
        if (sel.name.value === '__typename') continue;
        if (sel.name.value.startsWith('__')) {
          intro += 1;
          const child = sel.selectionSet ? walkIntrospection(sel.selectionSet, 2) : { depth: 1, cost: 0, aliases: 0 };
          introspectionDepth = Math.max(introspectionDepth, child.depth);
          cost += 1 + child.cost;
          aliases += child.aliases;
          continue;
        }
        const def = fields?.[sel.name.value];
        cost += 1;
        if (sel.selectionSet) {
          const child = walk(sel.selectionSet, def?.type, depth + 1);
          maxDepth = Math.max(maxDepth, child.depth);
          let multiplier = 1;
          if (def && isListType(getNullableType(def.type))) {
            const arg = sel.arguments?.find((a) => PAGE_ARGS.has(a.name.value));
            const n = arg ? Number(valueOf(arg.value)) : NaN;
            multiplier = Number.isFinite(n) && n > 0 ? n : DEFAULT_LIST_SIZE;
          }
          cost += multiplier * child.cost;
          aliases += child.aliases;
          intro += child.intro ?? 0;
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const typeName = sel.typeCondition?.name.value;
        const t = typeName ? (schema.getType(typeName) as GraphQLOutputType | undefined) : parent;
        const child = walk(sel.selectionSet, t, depth);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
        aliases += child.aliases;
        intro += child.intro ?? 0;
      } else {
        const m = spread(sel.name.value, memo, (f) => walk(f.selectionSet, schema.getType(f.typeCondition.name.value) as GraphQLOutputType, 0));
        if (!m) continue;
        maxDepth = Math.max(maxDepth, depth + m.depth);
        cost += m.cost;
        aliases += m.aliases;
        intro += m.intro ?? 0;
      }
    }
    return { depth: maxDepth, cost, aliases, intro };
  };
  const { aliases, intro, ...m } = walk(operation.selectionSet, root, 1);
  return { ...m, ...(introspectionDepth ? { introspectionDepth } : {}), ...(aliases ? { aliases } : {}), ...(intro ? { introspections: intro } : {}) };
}

export function limitError(m: OperationMeasure, maxDepth: number, maxCost: number, maxAliases = DEFAULT_MAX_ALIASES): GraphQLError | undefined {
  if ((m.aliases ?? 0) > maxAliases) {
    return new GraphQLError(`The operation has ${m.aliases} aliased fields; at most ${maxAliases} are accepted`, {
      extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } },
    });
  }
  if ((m.introspections ?? 0) > MAX_INTROSPECTIONS) {
    return new GraphQLError(`The operation asks for the schema (__schema, __type) ${m.introspections} times; at most ${MAX_INTROSPECTIONS} are accepted`, {
      extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } },
    });
  }
  if ((m.introspectionDepth ?? 0) > MAX_INTROSPECTION_DEPTH) {
    return new GraphQLError(`Introspection depth ${m.introspectionDepth} exceeds the limit of ${MAX_INTROSPECTION_DEPTH}`, {
      extensions: { code: 'QUERY_TOO_DEEP', status: 400, http: { status: 400 } },
    });
  }
  if (m.depth > maxDepth) {
    return new GraphQLError(`Query depth ${m.depth} exceeds the limit of ${maxDepth}`, {
      extensions: { code: 'QUERY_TOO_DEEP', status: 400, http: { status: 400 } },
    });
  }
  if (m.cost > maxCost) {
    return new GraphQLError(`Query cost ${m.cost} exceeds the limit of ${maxCost}`, {
      extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } },
    });
  }
  return undefined;
}
