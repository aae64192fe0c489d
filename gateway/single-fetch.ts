// Single-fetch pass-through: when an operation's query plan is one fetch from one subgraph, and that
// fetch selects exactly what the client asked (same fields, aliases, arguments and directives once
// fragments are expanded), the subgraph's answer already has the response's shape. ApolloGateway
// would still rebuild the operation from the document (operationFromDocument) and walk the answer
// field by field against it (resultShaping.computeResponse): 15–20 % of a REST list request's CPU
// in the profile of 22:20 (docs/performance.md). Here the answer is handed on as it is.
//
// What keeps it equivalent to ApolloGateway's executor:
// - eligibility is decided once per parsed document and operation name, from the plan ApolloGateway
//   built (captured through its experimental_didResolveQueryPlan hook): a Fetch node at the root, no
//   entity `requires`, no input/output/context rewrites, the same normalised selection set;
// - variables are checked as ApolloGateway checks them; a failure goes the standard way;
// - an answer with errors, without data, or a failed fetch is not shaped here: it is handed to the
//   standard executor as the already-fetched answer of that fetch (no second request to the
//   subgraph), so error paths, codes and null propagation stay ApolloGateway's own;
// - a fetch whose selection reaches a type the subgraph may answer with values the API schema does
//   not have (an enum value @inaccessible or left out of an enum intersection; an object type of an
//   interface or union that is @inaccessible or not in the API) is not passed through: ApolloGateway
//   nulls those values, so the standard executor answers it (found by the federation audit's
//   differential check, npm run audit:federation); a composed field is never less nullable than a
//   subgraph's.
// GATEWAY_SINGLE_FETCH=0 turns it off (every operation through ApolloGateway's executor).
import type { GatewayExecutor, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { operationFromDocument, possibleRuntimeTypes, Supergraph, type Schema } from '@apollo/federation-internals';
import type { FetchNode, QueryPlan } from '@apollo/query-planner';
import { getNamedType, getVariableValues, parse, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext, Prefetched } from './data-source.js';

/** `schema`: ApolloGateway's own API schema (graphql-js), which variables are checked against */
/** A data source that may hand an in-process answer over as its value (gateway/data-source.ts SignedDataSource); others ignore the flag. */
type ValueSource = { process(options: GraphQLDataSourceProcessOptions, asValue?: boolean): ReturnType<GraphQLDataSource['process']> };
type Plan = { fetch: FetchNode; definition: OperationDefinitionNode; schema: GraphQLSchema } | false;

export class SingleFetch {
  private readonly plans = new WeakMap<DocumentNode, Map<string, Plan>>();
  /** operations answered here / handed to the standard executor after a fetch (for the tests) */
  readonly counts = { passedThrough: 0, handedOn: 0 };

  /**
   * The API schema as the planner sees it, for comparing selections. ApolloGateway keeps its own
   * private, so it is built here from the same (static) supergraph: when the first operation is
   * planned, not at start-up (~0.1–0.25 s), and once.
   */
  private api?: Schema;
  /** per subgraph: the types whose values it may give that the API schema lacks (built with `api`) */
  private unshaped?: Map<string, Set<string>>;

  constructor(
    private readonly supergraphSdl: string,
    private readonly dataSources: ReadonlyMap<string, GraphQLDataSource>,
  ) {}

  /** ApolloGateway's experimental_didResolveQueryPlan: decide once per document and operation name. */
  readonly didResolveQueryPlan = ({ queryPlan, requestContext, operationContext }: { queryPlan: QueryPlan; requestContext: GatewayGraphQLRequestContext; operationContext: { schema: GraphQLSchema } }): void => {
    const document = requestContext.document;
    const name = requestContext.request.operationName ?? '';
    let byName = this.plans.get(document);
    if (byName?.has(name)) return;
    if (!byName) this.plans.set(document, (byName = new Map()));
    byName.set(name, this.eligible(queryPlan, document, requestContext.request.operationName ?? undefined, operationContext.schema));
  };

  /** ApolloGateway's executor with the pass-through in front of it. */
  wrap(standard: GatewayExecutor): GatewayExecutor {
    return async (rc) => {
      const plan = this.plans.get(rc.document)?.get(rc.request.operationName ?? '');
      if (!plan || rc.request.http?.headers.get('apollo-query-plan-experimental')) return standard(rc);
      const variables = rc.request.variables ?? {};
      if (plan.definition.variableDefinitions?.length && getVariableValues(plan.schema, plan.definition.variableDefinitions, variables).errors) return standard(rc);
      const { fetch } = plan;
      const source = this.dataSources.get(fetch.serviceName);
      if (!source) return standard(rc);
      const sent: Record<string, unknown> = Object.create(null);
      for (const name of fetch.variableUsages ?? []) if (Object.hasOwn(variables, name) && variables[name] !== undefined) sent[name] = variables[name];
      let outcome: Prefetched['outcome'];
      try {
        // the data is handed on unchanged: an in-process subgraph's answer is taken as its value (no parse)
        const response = await (source as ValueSource).process({
          // GraphQLDataSourceRequestKind.INCOMING_OPERATION (the enum is not exported by the package)
          kind: 'incoming operation' as GraphQLDataSourceProcessOptions['kind'],
          request: { query: fetch.operation, variables: sent, operationName: fetch.operationName },
          incomingRequestContext: rc,
          context: rc.context,
          document: fetch.operationDocumentNode,
          pathInIncomingRequest: [],
        }, true);
        if (!response.errors?.length && response.data && typeof response.data === 'object') {
          this.counts.passedThrough++;
          return { data: response.data };
        }
        outcome = { ok: true, response };
      } catch (error) {
        outcome = { ok: false, error };
      }
      this.counts.handedOn++;
      (rc.context as GatewayContext).prefetched = { query: fetch.operation, outcome };
      return standard(rc);
    };
  }

  private eligible(queryPlan: QueryPlan, document: DocumentNode, operationName: string | undefined, schema: GraphQLSchema): Plan {
    const fetch = queryPlan.node;
    if (fetch?.kind !== 'Fetch' || fetch.requires || fetch.inputRewrites?.length || fetch.outputRewrites?.length || fetch.contextRewrites?.length || fetch.hasDefers) return false;
    const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition' && (operationName === undefined || d.name?.value === operationName));
    if (!definition || fetch.operationKind !== definition.operation) return false;
    try {
      if (!this.api) {
        const supergraph = Supergraph.build(this.supergraphSdl);
        this.api = supergraph.apiSchema();
        this.unshaped = unshapedTypes(supergraph, this.api);
      }
      const fetchedDocument = parse(fetch.operation);
      const asked = operationFromDocument(this.api, document, { operationName, validate: false }).expandAllFragments().selectionSet.toString();
      const fetched = operationFromDocument(this.api, fetchedDocument, { validate: false }).expandAllFragments().selectionSet.toString();
      if (asked !== fetched) return false;
      return reaches(schema, fetchedDocument, this.unshaped!.get(fetch.serviceName)) ? false : { fetch, definition, schema };
    } catch {
      return false;
    }
  }
}

/**
 * Per subgraph, the types whose answers ApolloGateway's result shaping may change: enums with a value
 * the API schema's enum lacks, interfaces and unions with an object type the API schema lacks (or has
 * as another kind), and object types that are not objects in the API schema (@interfaceObject).
 */
function unshapedTypes(supergraph: Supergraph, api: Schema): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const subgraph of supergraph.subgraphs()) {
    const names = new Set<string>();
    for (const type of subgraph.schema.types()) {
      const inApi = api.type(type.name);
      if (type.kind === 'EnumType') {
        if (inApi?.kind !== 'EnumType' || type.values.some((v) => !inApi.value(v.name))) names.add(type.name);
      } else if (type.kind === 'InterfaceType' || type.kind === 'UnionType') {
        if (!inApi || possibleRuntimeTypes(type).some((t) => api.type(t.name)?.kind !== 'ObjectType')) names.add(type.name);
      } else if (type.kind === 'ObjectType' && inApi && inApi.kind !== 'ObjectType') {
        names.add(type.name);
      }
    }
    out.set(subgraph.name, names);
  }
  return out;
}

/** Whether any field the document selects has one of `names` as its (named) type. */
function reaches(schema: GraphQLSchema, document: DocumentNode, names: ReadonlySet<string> | undefined): boolean {
  if (!names?.size) return false;
  const info = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(info, {
      Field() {
        const type = info.getType();
        if (type && names.has(getNamedType(type).name)) found = true;
      },
    }),
  );
  return found;
}
