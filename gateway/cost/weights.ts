// The cost directives of the supergraph (IBM GraphQL cost spec, as Federation 2.9 composes them):
// `@cost(weight:)` on fields, types and arguments, `@listSize(assumedSize:, slicingArguments:,
// sizedFields:)` on fields. Read once from the supergraph's SDL at gateway start (the API schema
// Apollo builds drops them) into a table the estimator (gateway/limits.ts) looks fields up in.
import { Kind, type DirectiveNode, type ValueNode, type DocumentNode } from 'graphql';

export interface ListSize {
  assumedSize?: number;
  slicingArguments?: readonly string[];
  sizedFields?: readonly string[];
}

export interface FieldCost {
  /** @cost on the field */
  weight?: number;
  /** @cost on its arguments, charged when the argument is given */
  argWeights?: ReadonlyMap<string, number>;
  listSize?: ListSize;
}

export interface CostWeights {
  /** `Type.field` → the field's directives (only fields that carry one) */
  fields: ReadonlyMap<string, FieldCost>;
  /** type name → @cost on the type (object, interface, scalar, enum) */
  types: ReadonlyMap<string, number>;
}

export const NO_WEIGHTS: CostWeights = { fields: new Map(), types: new Map() };

// The names the supergraph uses: imported (`@cost`) or namespaced by the link (`@cost__cost`).
const COST = new Set(['cost', 'cost__cost', 'federation__cost']);
const LIST_SIZE = new Set(['listSize', 'cost__listSize', 'federation__listSize']);

function arg(d: DirectiveNode, name: string): ValueNode | undefined {
  return d.arguments?.find((a) => a.name.value === name)?.value;
}

function int(v: ValueNode | undefined): number | undefined {
  return v?.kind === Kind.INT ? Number(v.value) : undefined;
}

function strings(v: ValueNode | undefined): string[] | undefined {
  if (v?.kind === Kind.STRING) return [v.value];
  if (v?.kind !== Kind.LIST) return undefined;
  return v.values.flatMap((x) => (x.kind === Kind.STRING ? [x.value] : []));
}

function weightOf(directives: readonly DirectiveNode[] | undefined): number | undefined {
  const d = directives?.find((x) => COST.has(x.name.value));
  return d ? int(arg(d, 'weight')) : undefined;
}

function listSizeOf(directives: readonly DirectiveNode[] | undefined): ListSize | undefined {
  const d = directives?.find((x) => LIST_SIZE.has(x.name.value));
  if (!d) return undefined;
  const assumedSize = int(arg(d, 'assumedSize'));
  const slicingArguments = strings(arg(d, 'slicingArguments'));
  const sizedFields = strings(arg(d, 'sizedFields'));
  return { ...(assumedSize !== undefined ? { assumedSize } : {}), ...(slicingArguments ? { slicingArguments } : {}), ...(sizedFields ? { sizedFields } : {}) };
}

/** The cost table of an SDL document (the supergraph, or any schema annotated the same way). */
export function costWeights(sdl: DocumentNode): CostWeights {
  const fields = new Map<string, FieldCost>();
  const types = new Map<string, number>();
  for (const def of sdl.definitions) {
    if (!('name' in def) || !def.name || !('directives' in def)) continue;
    const typeName = def.name.value;
    const typeWeight = weightOf(def.directives);
    if (typeWeight !== undefined) types.set(typeName, typeWeight);
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_EXTENSION) continue;
    for (const f of def.fields ?? []) {
      const weight = weightOf(f.directives);
      const listSize = listSizeOf(f.directives);
      const argWeights = new Map<string, number>();
      for (const a of f.arguments ?? []) {
        const w = weightOf(a.directives);
        if (w !== undefined) argWeights.set(a.name.value, w);
      }
      if (weight === undefined && !listSize && !argWeights.size) continue;
      fields.set(`${typeName}.${f.name.value}`, { ...(weight !== undefined ? { weight } : {}), ...(argWeights.size ? { argWeights } : {}), ...(listSize ? { listSize } : {}) });
    }
  }
  return { fields, types };
}
