// The gateway core: federation only. ApolloGateway on a static supergraph with our execution path
// (the single-fetch pass-through, in-flight sharing of identical subgraph queries, our data source)
// and the input limits (request policy, depth/cost/aliases, tokens). It knows nothing of keys,
// tenants or operators: the platform layers those on it (gateway/gateway.ts, its own data source and
// plugins); scripts/federation-gateway.ts serves it alone on any supergraph (the federation audit,
// docs/performance.md).
import { ApolloServer, type BaseContext, type GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { parse, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { InFlight, SubgraphDataSource, type CoreContext } from './data-source.js';
import { SingleFetch } from './single-fetch.js';
import { operationPlugins, type OperationPlugin } from './operation-plugins.js';
import { DEFAULT_MAX_ALIASES, limitError, OperationMeasures } from './limits.js';
import { costWeights } from './cost/weights.js';
import { checkGraphQLSearch, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_TOKENS, parseGraphQLBody, requestPolicyPlugin } from './request-policy.js';
import type { GraphQLEdgePolicy } from '../lib/http.js';
import { envInt } from '../lib/config.js';
import type { StringCache } from '../lib/redis-kv-cache.js';

export interface CoreLimits {
  maxDepth: number;
  maxCost: number;
  /** MAX_QUERY_ALIASES */
  maxAliases: number;
  /** MAX_QUERY_TOKENS: Apollo's parseOptions */
  maxTokens: number;
}

export interface GatewayCoreOptions<C extends CoreContext & BaseContext> {
  supergraphSdl: string;
  /** GATEWAY_SINGLE_FETCH */
  singleFetch: boolean;
  /** GATEWAY_SHARE_INFLIGHT */
  shareInFlight: boolean;
  limits: CoreLimits;
  /** a subgraph's data source from its name and URL in the supergraph; default: SubgraphDataSource at that URL */
  dataSource?: (subgraph: { name: string; url: string }, inFlight: InFlight | undefined) => SubgraphDataSource<C>;
  formatError?: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** the layer's plugins, after the core's own (request policy, limits); all given to Apollo as one (operation-plugins.ts) */
  plugins?: OperationPlugin<C>[];
  /** every API schema the gateway loads (once: the supergraph is static) */
  onSchema?: (apiSchema: GraphQLSchema) => void;
  /** automatic persisted queries' store (hash → query text); default Apollo's in-process LRU */
  persistedQueries?: StringCache;
  /** the operations' measures (shared with a layer that reads them too); default: from the supergraph's @cost/@listSize */
  measures?: OperationMeasures;
}

export interface GatewayCore<C extends BaseContext> {
  apollo: ApolloServer<C>;
  gateway: ApolloGateway;
  /** undefined when sharing is off */
  inFlight?: InFlight;
  /** undefined when the pass-through is off */
  singleFetch?: SingleFetch;
  dataSources: ReadonlyMap<string, GraphQLDataSource>;
  apiSchema(): GraphQLSchema | undefined;
}

/** The core's limits: depth and cost as given (lib/config's MAX_QUERY_DEPTH, MAX_QUERY_COST), aliases and tokens from the environment. */
export function coreLimits(maxDepth: number, maxCost: number, env: NodeJS.ProcessEnv = process.env): CoreLimits {
  return { maxDepth, maxCost, maxAliases: envInt(env, 'MAX_QUERY_ALIASES', DEFAULT_MAX_ALIASES), maxTokens: envInt(env, 'MAX_QUERY_TOKENS', DEFAULT_MAX_TOKENS) };
}

/** The operations' measures with the cost weights of the supergraph's @cost/@listSize (docs/cost.md). */
export function supergraphMeasures(supergraphSdl: string): OperationMeasures {
  return new OperationMeasures(costWeights(parse(supergraphSdl)));
}

/** The HTTP half of the input policy (request-policy.ts), for lib/http's answerGraphQL. */
export function coreEdgePolicy(env: NodeJS.ProcessEnv = process.env): GraphQLEdgePolicy {
  return { parseBody: parseGraphQLBody, checkSearch: checkGraphQLSearch, maxResponseBytes: envInt(env, 'MAX_RESPONSE_BYTES', DEFAULT_MAX_RESPONSE_BYTES) };
}

/** Build and start the core (Apollo started; no HTTP: the caller serves `apollo`). */
export async function startGatewayCore<C extends CoreContext & BaseContext>(opts: GatewayCoreOptions<C>): Promise<GatewayCore<C>> {
  const { supergraphSdl, limits } = opts;
  const measures = opts.measures ?? supergraphMeasures(supergraphSdl);
  let apiSchema: GraphQLSchema | undefined;
  const inFlight = opts.shareInFlight ? new InFlight() : undefined;
  const dataSources = new Map<string, GraphQLDataSource>();
  const singleFetch = opts.singleFetch ? new SingleFetch(supergraphSdl, dataSources) : undefined;
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => {
      const source = opts.dataSource ? opts.dataSource({ name, url: url ?? '' }, inFlight) : new SubgraphDataSource<C>(url ?? '', name, inFlight);
      dataSources.set(name, source);
      return source;
    },
    ...(singleFetch ? { experimental_didResolveQueryPlan: singleFetch.didResolveQueryPlan } : {}),
  });
  if (singleFetch) gateway.executor = singleFetch.wrap(gateway.executor);

  const limitHooks = {
    didResolveOperation({ document, operationName, request }: GraphQLRequestContextDidResolveOperation<C>) {
      if (!apiSchema) return;
      const err = limitError(measures.measure(apiSchema, document, operationName, request.variables ?? {}), limits.maxDepth, limits.maxCost, limits.maxAliases);
      if (err) throw err;
    },
  };
  const limitsPlugin: OperationPlugin<C> = { requestDidStart: () => limitHooks };
  const apollo = new ApolloServer<C>({
    gateway,
    ...(opts.formatError ? { formatError: opts.formatError } : {}),
    includeStacktraceInErrorResponses: false,
    ...(opts.persistedQueries ? { persistedQueries: { cache: opts.persistedQueries } } : {}),
    introspection: true,
    // Apollo's landing page loads Apollo Sandbox and fonts from CDNs: browsers get our GraphiQL instead
    // inline traces are for subgraphs (Apollo's plugin checks the schema and does nothing in a gateway, at a
    // few promises a request): off, as the landing page
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled(), operationPlugins<C>([requestPolicyPlugin(() => apiSchema), limitsPlugin, ...(opts.plugins ?? [])])],
    // parsing and validation are linear in the document's tokens: bounding them bounds the work
    parseOptions: { maxTokens: limits.maxTokens },
  });
  gateway.onSchemaLoadOrUpdate(({ apiSchema: s }) => {
    apiSchema = s;
    opts.onSchema?.(s);
  });
  await apollo.start();
  return { apollo, gateway, inFlight, singleFetch, dataSources, apiSchema: () => apiSchema };
}
