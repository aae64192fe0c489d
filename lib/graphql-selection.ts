// What a query selects below the field being resolved, read from the resolver's `info`: lets a list
// resolver load a whole page's relations before graphql-js walks the page (one statement per
// relation, in parallel) instead of through one awaited field resolver per row.
import { getDirectiveValues, GraphQLIncludeDirective, GraphQLSkipDirective, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type Selected = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'variableValues'>;

function included(node: Parameters<typeof getDirectiveValues>[1], vars: Selected['variableValues']): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, vars)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
}

/** The fields directly in `set`, through inline fragments and spreads, as @include/@skip leave them. */
function fieldsIn(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, vars: Selected['variableValues'], out: FieldNode[]): FieldNode[] {
  for (const s of set?.selections ?? []) {
    if (!included(s, vars)) continue;
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) fieldsIn(s.selectionSet, fragments, vars, out);
    else {
      const f = fragments[s.name.value];
      if (f) fieldsIn(f.selectionSet, fragments, vars, out);
    }
  }
  return out;
}

/**
 * Names of the fields selected below the resolved field at `path` (response names are not used:
 * aliases of one field count once). `selectedFields(info, ['items'])` on `products` gives what each
 * product of the page will be asked for. Type conditions are not checked: a name is reported when any
 * fragment selects it, so a caller may load a little more than needed, never less.
 */
export function selectedFields(info: Selected, path: readonly string[] = []): Set<string> {
  let nodes: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) nodes = nodes.flatMap((n) => fieldsIn(n.selectionSet, info.fragments, info.variableValues, [])).filter((f) => f.name.value === name);
  return new Set(nodes.flatMap((n) => fieldsIn(n.selectionSet, info.fragments, info.variableValues, [])).map((f) => f.name.value));
}
