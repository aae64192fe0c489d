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
}

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
  // Introspection fields count 1 each (no list multiplier: the schema is finite) and their depth
  // (from __schema/__type = 1) is measured against MAX_INTROSPECTION_DEPTH, not the data depth limit.
  // `depth` is the depth of the selections in `set`, as in walk().
  const walkIntrospection = (set: SelectionSetNode, depth: number, seen: Set<string>): OperationMeasure => {
    let maxDepth = depth;
    let cost = 0;
    for (const sel of set.selections) {
      const sub =
        sel.kind === Kind.FIELD ? sel.selectionSet : sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : seen.has(sel.name.value) ? undefined : fragments.get(sel.name.value)?.selectionSet;
      const next = sel.kind === Kind.FRAGMENT_SPREAD ? new Set(seen).add(sel.name.value) : seen;
      const d = sel.kind === Kind.FIELD ? depth + 1 : depth;
      if (sel.kind === Kind.FIELD) cost += 1;
      if (sub) {
        const child = walkIntrospection(sub, d, next);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
      }
    }
    return { depth: maxDepth, cost };
  };

  const walk = (set: SelectionSetNode, parent: GraphQLOutputType | null | undefined, depth: number, seen: Set<string>): OperationMeasure => {
    let maxDepth = depth;
    let cost = 0;
    const named = parent ? getNamedType(parent) : undefined;
    const fields = named && (isObjectType(named) || isInterfaceType(named)) ? named.getFields() : undefined;
    for (const sel of set.selections) {
      if (excluded(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === '__typename') continue;
        if (sel.name.value.startsWith('__')) {
          const child = sel.selectionSet ? walkIntrospection(sel.selectionSet, 2, seen) : { depth: 1, cost: 0 };
          introspectionDepth = Math.max(introspectionDepth, child.depth);
          cost += 1 + child.cost;
          continue;
        }
        const def = fields?.[sel.name.value];
        cost += 1;
        if (sel.selectionSet) {
          const child = walk(sel.selectionSet, def?.type, depth + 1, seen);
          maxDepth = Math.max(maxDepth, child.depth);
          let multiplier = 1;
          if (def && isListType(getNullableType(def.type))) {
            const arg = sel.arguments?.find((a) => PAGE_ARGS.has(a.name.value));
            const n = arg ? Number(valueOf(arg.value)) : NaN;
            multiplier = Number.isFinite(n) && n > 0 ? n : DEFAULT_LIST_SIZE;
          }
          cost += multiplier * child.cost;
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const typeName = sel.typeCondition?.name.value;
        const t = typeName ? (schema.getType(typeName) as GraphQLOutputType | undefined) : parent;
        const child = walk(sel.selectionSet, t, depth, seen);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
      } else {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue; // cycles are a validation error anyway
        const next = new Set(seen).add(frag.name.value);
        const child = walk(frag.selectionSet, schema.getType(frag.typeCondition.name.value) as GraphQLOutputType, depth, next);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
      }
    }
    return { depth: maxDepth, cost };
  };
  const m = walk(operation.selectionSet, root, 1, new Set());
  return introspectionDepth ? { ...m, introspectionDepth } : m;
}

export function limitError(m: OperationMeasure, maxDepth: number, maxCost: number): GraphQLError | undefined {
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
