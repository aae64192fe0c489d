// Depth and cost limits, checked before execution. Cost model (docs/cost.md, the IBM GraphQL cost
// spec's static estimate): a field costs its @cost weight, else its type's @cost, else 1 for an
// object (interface, union) and 0 for a scalar or enum; a mutation's root field costs
// MUTATION_WEIGHT unless it says otherwise; an argument with @cost adds its weight when given. A list
// field multiplies its cost and its sub-selection's by its size: its @listSize slicing argument
// (given, else that argument's default), else its assumedSize, else a parent's @listSize naming it in
// sizedFields, else DEFAULT_LIST_SIZE. The weights come from the supergraph (cost/weights.ts).
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type GraphQLOutputType,
  type SelectionNode,
  type SelectionSetNode,
  type OperationDefinitionNode,
  type ValueNode,
  type GraphQLField,
  type GraphQLNamedType,
} from 'graphql';
import { NO_WEIGHTS, type CostWeights, type FieldCost } from './cost/weights.js';

export const DEFAULT_LIST_SIZE = 20;
/** Introspection (__schema, __type) has its own depth budget: the standard introspection query nests ~13 deep. */
export const MAX_INTROSPECTION_DEPTH = 20;
/** A mutation's root field without @cost (Apollo's demand control uses the same default). */
export const MUTATION_WEIGHT = 10;

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
  weights: CostWeights = NO_WEIGHTS,
): OperationMeasure {
  return measure(schema, document, operationName, variables, weights).measure;
}

/** The measure and whether it read a variable (a measure that did not holds for every request of the document). */
function measure(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  weights: CostWeights,
): { measure: OperationMeasure; read: ReadonlySet<string> } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    if (d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName)) operation ??= d;
  }
  if (!operation) return { measure: { depth: 0, cost: 0 }, read: new Set() };
  const read = new Set<string>();
  const root =
    operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  const valueOf = (v: ValueNode): unknown => {
    if (v.kind === Kind.INT) return Number(v.value);
    if (v.kind === Kind.BOOLEAN) return v.value;
    if (v.kind === Kind.VARIABLE) {
      read.add(v.name.value);
      return variables[v.name.value];
    }
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
  const spread = (name: string, table: Map<string, Measure>, measure: (f: FragmentDefinitionNode) => Measure, key = name): Measure | undefined => {
    const known = table.get(key);
    if (known) return known;
    const frag = fragments.get(name);
    if (!frag || active.has(name)) return undefined;
    active.add(name);
    const m = measure(frag);
    active.delete(name);
    table.set(key, m);
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

  // A list's size from its @listSize: the largest positive slicing argument given (else its
  // default), else assumedSize; undefined when the field says nothing.
  const sizeOf = (sel: FieldNode, def: GraphQLField<unknown, unknown> | undefined, ls: FieldCost['listSize']): number | undefined => {
    if (!ls) return undefined;
    let size: number | undefined;
    for (const name of ls.slicingArguments ?? []) {
      const given = sel.arguments?.find((a) => a.name.value === name);
      const n = Number(given ? valueOf(given.value) : def?.args.find((a) => a.name === name)?.defaultValue);
      if (Number.isFinite(n) && n > 0) size = Math.max(size ?? 0, n);
    }
    return size ?? ls.assumedSize;
  };
  // `sized`: the sizedFields of the parent's @listSize and the size they take
  type Sized = { fields: readonly string[]; size: number } | undefined;
  const walk = (set: SelectionSetNode, parent: GraphQLOutputType | null | undefined, depth: number, sized?: Sized): Measure => {
    let maxDepth = depth;
    let cost = 0;
    let aliases = 0;
    let intro = 0;
    const named = parent ? getNamedType(parent) : undefined;
    const fields = named && (isObjectType(named) || isInterfaceType(named)) ? named.getFields() : undefined;
    const isMutationRoot = !!named && named === schema.getMutationType();
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
        const fc = named ? weights.fields.get(`${named.name}.${sel.name.value}`) : undefined;
        const returns: GraphQLNamedType | undefined = def ? getNamedType(def.type) : undefined;
        const composite = returns ? !isLeafType(returns) : !!sel.selectionSet;
        const own = fc?.weight ?? (returns ? weights.types.get(returns.name) : undefined) ?? (isMutationRoot ? MUTATION_WEIGHT : composite ? 1 : 0);
        let argCost = 0;
        for (const a of sel.arguments ?? []) argCost += fc?.argWeights?.get(a.name.value) ?? 0;
        const size = sizeOf(sel, def, fc?.listSize);
        const childSized: Sized = fc?.listSize?.sizedFields?.length ? { fields: fc.listSize.sizedFields, size: size ?? DEFAULT_LIST_SIZE } : undefined;
        let childCost = 0;
        if (sel.selectionSet) {
          const child = walk(sel.selectionSet, def?.type, depth + 1, childSized);
          maxDepth = Math.max(maxDepth, child.depth);
          childCost = child.cost;
          aliases += child.aliases;
          intro += child.intro ?? 0;
        }
        let multiplier = 1;
        if (def && isListType(getNullableType(def.type))) {
          const fromParent = sized?.fields.includes(sel.name.value) ? sized.size : undefined;
          multiplier = (childSized ? undefined : size) ?? fromParent ?? DEFAULT_LIST_SIZE;
        }
        cost += argCost + multiplier * (own + childCost);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const typeName = sel.typeCondition?.name.value;
        const t = typeName ? (schema.getType(typeName) as GraphQLOutputType | undefined) : parent;
        const child = walk(sel.selectionSet, t, depth, sized);
        maxDepth = Math.max(maxDepth, child.depth);
        cost += child.cost;
        aliases += child.aliases;
        intro += child.intro ?? 0;
      } else {
        const key = sized ? `${sel.name.value}|${sized.size}|${sized.fields.join(',')}` : sel.name.value;
        const m = spread(sel.name.value, memo, (f) => walk(f.selectionSet, schema.getType(f.typeCondition.name.value) as GraphQLOutputType, 0, sized), key);
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
  return {
    measure: { ...m, ...(introspectionDepth ? { introspectionDepth } : {}), ...(aliases ? { aliases } : {}), ...(intro ? { introspections: intro } : {}) },
    read,
  };
}

/**
 * Measures per operation document, kept while Apollo keeps the document (its parsed-document cache
 * hands the same DocumentNode to every request of the same text). A measure depends only on the
 * variables it read (slicing arguments, @skip/@include conditions): it is kept under those
 * variables' values, so a page size or an include switch costs one lookup after its first request.
 */
export class OperationMeasures {
  private known = new WeakMap<DocumentNode, Map<string, MeasuresOf>>();
  constructor(private weights: CostWeights) {}

  measure(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> = {}): OperationMeasure {
    let byName = this.known.get(document);
    if (!byName) this.known.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let of = byName.get(name);
    if (!of) byName.set(name, (of = { readSets: [], entries: new Map() }));
    for (const names of of.readSets) {
      const hit = of.entries.get(keyOf(names, variables));
      if (hit) return hit;
    }
    const m = measure(schema, document, operationName, variables, this.weights);
    const names = [...m.read].sort();
    const key = keyOf(names, variables);
    // bounded: values of a free-text variable read in a condition would otherwise grow it per request
    if (key.length <= MAX_MEASURE_KEY && of.entries.size < MAX_MEASURES_PER_OPERATION) {
      if (!of.readSets.some((r) => r.join() === names.join())) of.readSets.push(names);
      of.entries.set(key, m.measure);
    }
    return m.measure;
  }
}

interface MeasuresOf {
  /** the sets of variable names measures of this operation read (usually one) */
  readSets: string[][];
  /** variable names and values read → measure */
  entries: Map<string, OperationMeasure>;
}

const MAX_MEASURES_PER_OPERATION = 256;
const MAX_MEASURE_KEY = 512;

function keyOf(names: readonly string[], variables: Record<string, unknown>): string {
  return names.length ? `${names.join()}|${JSON.stringify(names.map((n) => variables[n] ?? null))}` : '';
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
