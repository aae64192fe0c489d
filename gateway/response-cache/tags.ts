// The tags of a cached answer: the entities it contains and the lists it came from, read from the
// result against the operation and the API schema (no __typename or id is added to the plan):
//  - `Type:<key>` for each object of an entity type whose key field (id; Index: uid) was selected;
//  - `Type:*` for a list of that type (a list's members change when any of them is created, changed
//    or deleted) and for an object of it whose key was not selected (it cannot be named);
//  - `Index:<uid>` for a root field reading an index's documents (its argument names the index).
// An event invalidates `Type:<key>` and `Type:*` (invalidation.ts), so an answer is dropped exactly
// when something it shows, or a list it came from, changed.
import { getNamedType, isAbstractType, isCompositeType, isInterfaceType, isListType, isNonNullType, isObjectType, Kind, valueFromASTUntyped, type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLOutputType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/** The field that names an entity in the events, per type ('id' when not listed). */
const KEY_FIELD: Readonly<Record<string, string>> = { Index: 'uid' };
/** Root fields whose answer comes from one index's documents: the argument naming the index. */
const INDEX_ARGUMENT: Readonly<Record<string, string>> = { searchIndex: 'indexUid', facetSearch: 'indexUid', indexDocument: 'indexUid', indexDocuments: 'indexUid', index: 'uid' };

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;
type Obj = Record<string, unknown>;

export function keyFieldOf(type: string): string {
  return KEY_FIELD[type] ?? 'id';
}

/** Every tag of `data`, the result of `op` (variables as sent, for the index arguments). */
export function collectTags(schema: GraphQLSchema, op: OperationDefinitionNode, fragments: Fragments, data: Obj, variables: Obj): Set<string> {
  const tags = new Set<string>();
  const root = schema.getQueryType();
  if (!root) return tags;
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    const arg = INDEX_ARGUMENT[sel.name.value];
    const node = arg ? sel.arguments?.find((a) => a.name.value === arg) : undefined;
    if (node) {
      const v = valueFromASTUntyped(node.value, variables);
      tags.add(typeof v === 'string' ? `Index:${v}` : 'Index:*');
    }
  }
  walkObject(schema, root, op.selectionSet, data, fragments, tags);
  return tags;
}

/** The fields of `set` that apply to an object of `type`, fragments expanded (response key → field name). */
function fieldsOf(schema: GraphQLSchema, type: GraphQLCompositeType, set: SelectionSetNode, fragments: Fragments, out: Map<string, { name: string; set?: SelectionSetNode[] }>, seen = new Set<string>()): void {
  const applies = (cond: string | undefined) => {
    if (!cond || cond === type.name) return true;
    const t = schema.getType(cond);
    return !!t && isAbstractType(t) && isObjectType(type) && schema.isSubType(t, type);
  };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const had = out.get(key);
      if (had) {
        if (sel.selectionSet) (had.set ??= []).push(sel.selectionSet);
      } else out.set(key, { name: sel.name.value, ...(sel.selectionSet ? { set: [sel.selectionSet] } : {}) });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (applies(sel.typeCondition?.name.value)) fieldsOf(schema, type, sel.selectionSet, fragments, out, seen);
    } else {
      const f = fragments.get(sel.name.value);
      if (f && !seen.has(f.name.value) && applies(f.typeCondition.name.value)) fieldsOf(schema, type, f.selectionSet, fragments, out, new Set([...seen, f.name.value]));
    }
  }
}

function walkObject(schema: GraphQLSchema, declared: GraphQLCompositeType, set: SelectionSetNode | SelectionSetNode[], value: Obj, fragments: Fragments, tags: Set<string>): void {
  // the object's runtime type: its own for an object type, its __typename for an interface or union
  let type: GraphQLCompositeType = declared;
  if (isAbstractType(declared)) {
    const named = typeof value.__typename === 'string' ? schema.getType(value.__typename) : undefined;
    if (named && isObjectType(named)) type = named;
  }
  const fields = new Map<string, { name: string; set?: SelectionSetNode[] }>();
  for (const s of Array.isArray(set) ? set : [set]) fieldsOf(schema, type, s, fragments, fields);
  const defs = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
  const keyField = keyFieldOf(type.name);
  if (isObjectType(type) && defs[keyField]) {
    let key: unknown;
    for (const [responseKey, f] of fields) if (f.name === keyField) key = value[responseKey];
    tags.add(typeof key === 'string' || typeof key === 'number' ? `${type.name}:${key}` : `${type.name}:*`);
  } else if (!isObjectType(type)) {
    tags.add(`${type.name}:*`); // an abstract value without __typename: every type it may be
    for (const t of schema.getPossibleTypes(type)) tags.add(`${t.name}:*`);
  }
  for (const [responseKey, f] of fields) {
    const def = defs[f.name];
    const child = value[responseKey];
    if (!def || !f.set || child === null || child === undefined) continue;
    walkValue(schema, def.type, f.set, child, fragments, tags);
  }
}

function walkValue(schema: GraphQLSchema, type: GraphQLOutputType, set: SelectionSetNode[], value: unknown, fragments: Fragments, tags: Set<string>): void {
  if (value === null || value === undefined) return;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const named = getNamedType(inner);
    if (isCompositeType(named)) {
      tags.add(`${named.name}:*`);
      if (isAbstractType(named)) for (const t of schema.getPossibleTypes(named)) tags.add(`${t.name}:*`);
    }
    if (Array.isArray(value)) for (const item of value) walkValue(schema, inner.ofType, set, item, fragments, tags);
    return;
  }
  if (isCompositeType(inner) && typeof value === 'object') walkObject(schema, inner, set, value as Obj, fragments, tags);
}
