// What may be cached and for how long: @cacheControl-style hints kept as a table the gateway reads
// (the subgraphs' SDL stays as composed). An operation is cacheable when every root field it selects
// has a hint (`Query.<field>`, else its return type's) and no field below reaches a hint of maxAge 0;
// nested fields without a hint inherit their parent's. Its maxAge is the least of the hints it meets.
// Mutations, subscriptions and introspection are never cached (no hint). docs/response-cache.md.
import { getNamedType, isCompositeType, isInterfaceType, isObjectType, Kind, type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

export interface CacheHint {
  /** seconds; 0: never cached */
  maxAge: number;
  /** PRIVATE: the answer depends on the user, cached only under a per-user partition key */
  scope?: 'PUBLIC' | 'PRIVATE';
}

/** Catalog and search reads change only through writes that publish events or pass a gateway (docs/response-cache.md). */
const CATALOG = 300;
export const CACHE_HINTS: Readonly<Record<string, CacheHint>> = {
  // root fields that may be cached
  'Query.product': { maxAge: CATALOG },
  'Query.productBySku': { maxAge: CATALOG },
  'Query.products': { maxAge: CATALOG },
  'Query.productVariants': { maxAge: CATALOG },
  'Query.productImages': { maxAge: CATALOG },
  'Query.category': { maxAge: CATALOG },
  'Query.categoryBySlug': { maxAge: CATALOG },
  'Query.categories': { maxAge: CATALOG },
  'Query.categoryTree': { maxAge: CATALOG },
  'Query.collection': { maxAge: CATALOG },
  'Query.collections': { maxAge: CATALOG },
  'Query.collectionProducts': { maxAge: CATALOG },
  'Query.currentApp': { maxAge: CATALOG },
  'Query.index': { maxAge: CATALOG },
  'Query.indexDocument': { maxAge: CATALOG },
  'Query.indexDocuments': { maxAge: CATALOG },
  'Query.searchIndex': { maxAge: CATALOG },
  'Query.facetSearch': { maxAge: CATALOG },
  // never: stock moves with every order and reservation; prices effective "now"; counts and
  // credentials of the platform; other subgraphs' views of a product
  'Product.inventory': { maxAge: 0 },
  'Product.bundleAvailable': { maxAge: 0 },
  'Product.effectivePrice': { maxAge: 0 },
  'Product.searchDocuments': { maxAge: 0 },
  'Product.moderation': { maxAge: 0 },
  'Variant.inventory': { maxAge: 0 },
  Inventory: { maxAge: 0 },
  VariantInventory: { maxAge: 0 },
  InventoryStatus: { maxAge: 0 },
  Reservation: { maxAge: 0 },
  'App.identityCount': { maxAge: 0 },
  'App.apiKeys': { maxAge: 0 },
  'App.account': { maxAge: 0 },
  'App.blocks': { maxAge: 0 },
  'App.indexes': { maxAge: 0 },
  'Index.isIndexing': { maxAge: 0 },
  'Index.numberOfDocuments': { maxAge: 0 },
};

export interface CachePolicy {
  maxAge: number;
  scope: 'PUBLIC' | 'PRIVATE';
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** The policy of an operation, or undefined when it may not be cached. */
export function cachePolicy(schema: GraphQLSchema, op: OperationDefinitionNode, fragments: Fragments, hints: Readonly<Record<string, CacheHint>> = CACHE_HINTS): CachePolicy | undefined {
  if (op.operation !== 'query') return undefined;
  const root = schema.getQueryType();
  if (!root) return undefined;
  const policy: CachePolicy = { maxAge: Infinity, scope: 'PUBLIC' };
  const apply = (h: CacheHint): boolean => {
    if (h.maxAge <= 0) return false;
    policy.maxAge = Math.min(policy.maxAge, h.maxAge);
    if (h.scope === 'PRIVATE') policy.scope = 'PRIVATE';
    return true;
  };
  const visit = (parent: GraphQLCompositeType, set: SelectionSetNode, isRoot: boolean, seen: Set<string>): boolean => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (!t || !isCompositeType(t) || !visit(t, sel.selectionSet, isRoot, seen)) return false;
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(sel.name.value);
        if (!f || seen.has(f.name.value)) continue;
        const t = schema.getType(f.typeCondition.name.value);
        if (!t || !isCompositeType(t) || !visit(t, f.selectionSet, isRoot, new Set([...seen, f.name.value]))) return false;
        continue;
      }
      const name = sel.name.value;
      if (name === '__typename') continue;
      if (name.startsWith('__')) return false; // introspection
      const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
      const fieldType = def ? getNamedType(def.type) : undefined;
      const hint = hints[`${parent.name}.${name}`] ?? (fieldType ? hints[fieldType.name] : undefined);
      if (isRoot && !hint) return false;
      if (hint && !apply(hint)) return false;
      if (sel.selectionSet && fieldType && isCompositeType(fieldType) && !visit(fieldType, sel.selectionSet, false, seen)) return false;
    }
    return true;
  };
  if (!visit(root, op.selectionSet, true, new Set())) return undefined;
  return Number.isFinite(policy.maxAge) ? policy : undefined;
}
