// Derived selections: `fragment ProductFields on Product @allFields { id }` (or a field,
// `registerIdentity(...) @allFields { id }`) selects, besides what it writes, every field of the
// type a REST resource shows, read from the composed schema when the operations load. So a field
// added to a GraphQL type reaches the REST resource with nothing written in operations/. The rule,
// per field of the type (recursively for value objects):
//  - taken: scalars, enums and lists of them; value objects (object types without `id`), expanded
//    by the same rule;
//  - left out: fields with a required argument, @inaccessible fields, relations (fields returning
//    an object type with `id`: select them explicitly, as BlockLicense's `block { code name }`),
//    fields another subgraph resolves (a cross-service call per row), and the names in `except`.
// A field written in the selection keeps its written selection. `@allFields` never reaches the gateway.
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionNode,
} from 'graphql';
import type { Service } from './types.js';

export const ALL_FIELDS = 'allFields';

/** The supergraph's join__Graph name of each bridge service (who resolves a fragment's home fields). */
const GRAPH: Record<Service, string> = { platform: 'PLATFORM', products: 'CATALOG', search: 'SEARCH', ai: 'AI' };

function directive(node: { directives?: readonly DirectiveNode[] } | undefined | null, name: string): DirectiveNode | undefined {
  return node?.directives?.find((d) => d.name.value === name);
}

/** The graphs a field is resolved by (@join__field), or undefined when every graph of its type can. */
function graphsOf(f: GraphQLField<unknown, unknown>): string[] | undefined {
  const joins = f.astNode?.directives?.filter((d) => d.name.value === 'join__field') ?? [];
  const graphs = joins.flatMap((d) => d.arguments?.filter((a) => a.name.value === 'graph').map((a) => (a.value.kind === Kind.ENUM ? a.value.value : '')) ?? []);
  return graphs.length ? graphs : undefined;
}

const isEntity = (t: GraphQLNamedType) => (isObjectType(t) || isInterfaceType(t)) && 'id' in t.getFields();

function fieldNode(name: string, selections?: readonly SelectionNode[]): FieldNode {
  return {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: name },
    ...(selections ? { selectionSet: { kind: Kind.SELECTION_SET, selections } } : {}),
  };
}

function taken(f: GraphQLField<unknown, unknown>, graph: string, except: readonly string[]): boolean {
  if (except.includes(f.name)) return false;
  if (f.args.some((a) => a.type.toString().endsWith('!') && a.defaultValue === undefined)) return false;
  if (directive(f.astNode, 'inaccessible')) return false;
  const graphs = graphsOf(f);
  if (graphs && !graphs.includes(graph)) return false;
  const named = getNamedType(f.type);
  return !isEntity(named);
}

/** The selections of `type` by the rule, written selections first-class (kept as written, in schema order). */
function expand(type: GraphQLObjectType, written: readonly SelectionNode[], graph: string, except: readonly string[], where: string, seen: readonly string[]): SelectionNode[] {
  const byName = new Map<string, SelectionNode>();
  const rest: SelectionNode[] = [];
  for (const s of written) {
    if (s.kind === Kind.FIELD && !s.alias) byName.set(s.name.value, s);
    else rest.push(s);
  }
  const out: SelectionNode[] = [];
  for (const f of Object.values(type.getFields())) {
    const w = byName.get(f.name);
    if (w) {
      out.push(w);
      byName.delete(f.name);
      continue;
    }
    if (!taken(f, graph, except)) continue;
    const named = getNamedType(f.type);
    if (isObjectType(named)) {
      if (seen.includes(named.name)) throw new Error(`${where}: ${named.name} contains itself; select ${f.name} explicitly`);
      out.push(fieldNode(f.name, expand(named, [], graph, [], where, [...seen, named.name])));
    } else if (isInterfaceType(named)) continue; // which implementation's fields? select it explicitly
    else out.push(fieldNode(f.name));
  }
  return [...out, ...byName.values(), ...rest];
}

function exceptOf(d: DirectiveNode, type: GraphQLObjectType, where: string): string[] {
  const arg = d.arguments?.find((a) => a.name.value === 'except')?.value;
  const except = arg?.kind === Kind.LIST ? arg.values.map((v) => (v.kind === Kind.STRING ? v.value : '')) : [];
  const unknown = except.filter((n) => !(n in type.getFields()));
  if (unknown.length) throw new Error(`${where}: except names ${unknown.join(', ')}, not fields of ${type.name}`);
  return except;
}

/** The selection set of a node carrying @allFields, expanded; undefined when the node has none. */
function expanded<T extends FragmentDefinitionNode | FieldNode>(node: T, type: GraphQLNamedType | undefined, graph: string, where: string): T | undefined {
  const d = directive(node, ALL_FIELDS);
  if (!d) return undefined;
  if (!isObjectType(type)) throw new Error(`${where}: @${ALL_FIELDS} needs an object type${type ? `, ${type.name} is not one` : ''}`);
  if (!node.selectionSet) throw new Error(`${where}: @${ALL_FIELDS} needs a selection ({ id })`);
  const selections = expand(type, node.selectionSet.selections, graph, exceptOf(d, type, where), where, [type.name]);
  return { ...node, directives: node.directives?.filter((x) => x !== d), selectionSet: { ...node.selectionSet, selections } };
}

/** Every @allFields of an operation file expanded against the schema (fragments and fields). */
export function expandAllFields(doc: DocumentNode, schema: GraphQLSchema, service: Service, file: string): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  const graph = GRAPH[service];
  return visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      FragmentDefinition: {
        leave: (f) => expanded(f, schema.getType(f.typeCondition.name.value) ?? undefined, graph, `operations/${file}: fragment ${f.name.value}`),
      },
      Field: {
        leave: (f) => {
          const t = typeInfo.getType();
          return expanded(f, t ? getNamedType(t) : undefined, graph, `operations/${file}: field ${f.name.value}`);
        },
      },
    }),
  );
}
