// Introspection and the SDL show the whole schema: the gateway's query planner only knows the
// federated API schema, so an operation that selects nothing but introspection fields (`__schema`,
// `__type`, `__typename`) is answered from the schema extended with the Subscription root instead.
import { execute, Kind, printSchema, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { BaseContext, GraphQLRequestContextResponseForOperation, GraphQLResponse } from '@apollo/server';
import type { OperationHooks, OperationPlugin } from '../operation-plugins.js';

function onlyIntrospection(set: SelectionSetNode, fragments: Map<string, SelectionSetNode>, seen = new Set<string>()): boolean {
  return set.selections.every((s) => {
    if (s.kind === Kind.FIELD) return s.name.value.startsWith('__');
    if (s.kind === Kind.INLINE_FRAGMENT) return onlyIntrospection(s.selectionSet, fragments, seen);
    if (seen.has(s.name.value)) return true;
    seen.add(s.name.value);
    const f = fragments.get(s.name.value);
    return !!f && onlyIntrospection(f, fragments, seen);
  });
}

export function isIntrospectionOnly(op: OperationDefinitionNode, fragments: Map<string, SelectionSetNode>): boolean {
  return op.operation === 'query' && onlyIntrospection(op.selectionSet, fragments);
}

/** A gateway plugin answering introspection-only queries from `schema()` (the full schema); other operations go on at once. */
export function fullSchemaIntrospection<C extends BaseContext>(schema: () => GraphQLSchema | undefined): OperationPlugin<C> {
  const hooks: OperationHooks<C> = {
    responseForOperation(rc) {
      const full = schema();
      if (!full) return null;
      const fragments = new Map<string, SelectionSetNode>();
      for (const d of rc.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
      if (!isIntrospectionOnly(rc.operation, fragments)) return null;
      return introspect(full, rc);
    },
  };
  return { requestDidStart: () => hooks };
}

async function introspect<C extends BaseContext>(full: GraphQLSchema, { document, request, contextValue, response }: GraphQLRequestContextResponseForOperation<C>): Promise<GraphQLResponse> {
  const result = await execute({ schema: full, document, operationName: request.operationName, variableValues: request.variables, contextValue });
  return {
    http: response.http,
    body: { kind: 'single', singleResult: { data: result.data as Record<string, unknown>, ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}) } },
  };
}

/** The SDL served at GET /graphql/schema.graphql: the federated API schema plus the Subscription root. */
export function fullSdl(schema: GraphQLSchema): string {
  return printSchema(schema);
}
