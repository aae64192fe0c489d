// A GraphQL operation's selection typed against the schema: every field selected on a type,
// through fragments and inline fragments, with its definition. The one walk derive.ts and
// resource-links.ts read operations with.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, isInterfaceType, isObjectType } from 'graphql';

/** The operation of a standalone operation document (operations.ts). */
export function operationOf(doc: DocumentNode): OperationDefinitionNode {
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('no operation in the document');
  return op;
}

export interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
}

type FieldVisitor = (key: string, def: GraphQLField<unknown, unknown>, selection: SelectionSetNode | undefined) => void;

/** Every field selected on `parent` (through fragments and inline fragments), with its definition. */
export function eachField(w: Walk, set: SelectionSetNode, parent: GraphQLNamedType, visit: FieldVisitor): void {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (s.name.value === '__typename' || !(isObjectType(parent) || isInterfaceType(parent))) continue;
      const def = parent.getFields()[s.name.value];
      if (def) visit(s.alias?.value ?? s.name.value, def, s.selectionSet);
    } else {
      const frag = s.kind === Kind.FRAGMENT_SPREAD ? w.fragments.get(s.name.value) : s;
      if (!frag) continue;
      const on = frag.typeCondition ? w.schema.getType(frag.typeCondition.name.value) : parent;
      if (on) eachField(w, frag.selectionSet, on, visit);
    }
  }
}

export function walkOf(doc: DocumentNode, schema: GraphQLSchema): { w: Walk; op: OperationDefinitionNode; root: GraphQLObjectType } {
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const op = operationOf(doc);
  const root = op.operation === 'mutation' ? schema.getMutationType() : op.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!root) throw new Error(`the schema has no ${op.operation} type`);
  return { w: { schema, fragments }, op, root };
}
