// The platform's gateway: the federation core (core.ts: ApolloGateway on the static supergraph, our
// execution path, the input limits) with the platform's policy layered on it. This file composes
// the concerns, each in its own file with one entry:
//   auth/edge-auth.ts   authentication at the edge (keys, operators, JWT/JWKS, client address)
//   graphql-answer.ts   POST/GET /graphql: authentication, CORS and rate-limit headers, hooks, Apollo
//   router.ts           the HTTP paths (GraphiQL in graphiql.ts, health in health.ts)
//   websocket.ts        graphql-ws subscriptions on the same port
//   sse/sse.ts          GraphQL over SSE (graphql-sse, both modes) on /graphql, resumable
//   local.ts            the in-process twin the REST bridge of this process calls
//   usage-flush.ts      usage counts flushed to the platform in batches
//   shutdown.ts         drain, then stop
//   registered-operations.ts  an app's trusted operations, run by id (an extension, below)
// Features plug in as extensions (hooks.ts): request hooks before and after execution, Apollo
// plugins per operation, extra HTTP routes; list them in `extensions` below.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Config, SubgraphName } from '../lib/config.js';
import { loadContract } from '../lib/contract.js';
import { createErrorFormatter } from '../lib/graphql-errors.js';
import { listen, pathOf } from '../lib/http.js';
import type { Infra } from '../lib/infra.js';
import type { Logger } from '../lib/logger.js';
import type { LocalRoutes } from '../lib/local-transport.js';
import { answerClientErrorsWithJson } from '../lib/input-policy.js';
import { METRICS_PATH, sendMetrics } from '../lib/metrics.js';
import { instrument, startTracing } from '../lib/telemetry.js';
import { RedisStringCache } from '../lib/redis-kv-cache.js';
import type { ApiKeyVerifier } from './auth/api-key.js';
import { createEdgeAuth } from './auth/edge-auth.js';
import { SignedDataSource, type GatewayContext } from './data-source.js';
import { coreEdgePolicy, coreLimits, startGatewayCore, supergraphMeasures } from './core.js';
import { costExtension } from './cost/cost-plugin.js';
import { costBudgets } from './cost/budget.js';
import { subgraphUnavailable } from './unavailable.js';
import { PlatformClient } from './platform-client.js';
import { buildSubscriptionSchema } from './subscriptions/schema.js';
import { subscriptionRegistry } from './subscriptions/registry.js';
import { fullSchemaIntrospection } from './subscriptions/introspection.js';
import { imageBudgetPlugin } from './image-budget.js';
import { requestIdPlugin } from './request-id.js';
import { apolloTelemetryEnv } from './apollo-telemetry.js';
import { extraRoutes, requestHooks, type GatewayExtension } from './hooks.js';
import { createGraphQLAnswer } from './graphql-answer.js';
import { createHealthRoute } from './health.js';
import { createRouter } from './router.js';
import { startWebSockets } from './websocket.js';
import { createSse } from './sse/sse.js';
import { serveInProcess } from './local.js';
import { startUsageFlush } from './usage-flush.js';
import { registeredOperations } from './registered-operations.js';
import { shutdownSequence, type ShutdownState } from './shutdown.js';
import { ResponseCache, responseCacheOptions } from './response-cache/response-cache.js';

/** how long a query registered by hash (automatic persisted queries) stays in Redis after its last registration */
export const APQ_TTL_SEC = 24 * 3600;

export const SUPERGRAPH_PATH = resolve(import.meta.dirname, '..', 'schema', 'supergraph.graphql');

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  keys: ApiKeyVerifier;
  /** stop accepting, finish the requests in flight (in-process calls still answered) */
  drain(deadline: number): Promise<void>;
  /** drain, then stop Apollo and the gateway's background work, before `deadline` */
  stop(deadline?: number): Promise<void>;
}

/** `local`: the subgraphs this process serves, fetched in process (lib/local-transport.ts) */
export async function startGateway(opts: { cfg: Config; log: Logger; infra: Infra; port?: number; supergraphSdl?: string; local?: LocalRoutes }): Promise<RunningGateway> {
  const { cfg, infra } = opts;
  const log = opts.log.child({ proc: 'gateway' });
  const supergraphSdl = opts.supergraphSdl ?? readFileSync(SUPERGRAPH_PATH, 'utf8');
  // the subgraphs' Subscription fields (and error codes, read by lib/errors.ts), generated beside the supergraph
  const subscriptions = subscriptionRegistry(loadContract().subscriptions);

  const platform = new PlatformClient(cfg.subgraphUrls.platform, cfg.internalSecret);
  const auth = createEdgeAuth(cfg, infra, platform, log);
  const state: ShutdownState = { stopping: false, closed: false };
  const registered = registeredOperations({ fetchRegistry: (appId) => platform.operationRegistry(appId), pubsub: infra.pubsub, internalSecret: cfg.internalSecret, log });
  // features layered on the request path (hooks.ts), in the order they run
  // answers of queries kept per tenant partition, invalidated by events and writes (docs/response-cache.md)
  const responseCache = ResponseCache.create(responseCacheOptions(), { pubsub: infra.pubsub, redis: infra.redis, redisKeyPrefix: cfg.redisKeyPrefix, log });
  const cache: GatewayExtension = { arrived: (call) => responseCache.arrived(call), aroundExecute: (call, tenant, run) => responseCache.serve(call, tenant, run), plugins: [responseCache.plugin<GatewayContext>()], written: (tenant) => responseCache.written(tenant) };
  // query cost charged to the key's budget per minute and reported on every answer (docs/cost.md)
  const measures = supergraphMeasures(supergraphSdl);
  const cost = costExtension({ limiter: infra.rateLimiter, budgets: costBudgets(), measures, maxCost: cfg.maxQueryCost });
  // registered operations first: a cached answer is keyed by the document the registry put in; cost
  // after the cache, so that it reports on a cached answer as it goes out
  const extensions: GatewayExtension[] = [registered, cache, cost];
  const hooks = requestHooks(extensions);

  let subSchema: GraphQLSchema | undefined;
  const tracing = await startTracing(cfg, 'gateway', log);
  apolloTelemetryEnv(cfg);
  const limits = coreLimits(cfg.maxQueryDepth, cfg.maxQueryCost);
  // the federation core with the platform's layer: signed tenant context to the subgraphs at the
  // configured addresses, the image budget, the Subscription root in introspection
  const { apollo } = await startGatewayCore<GatewayContext>({
    supergraphSdl,
    singleFetch: cfg.gatewaySingleFetch,
    shareInFlight: cfg.gatewayShareInFlight,
    limits,
    measures,
    dataSource: ({ name }, inFlight) => new SignedDataSource(cfg.subgraphUrls[name as SubgraphName] ?? '', cfg.internalSecret, name, inFlight, tracing, opts.local),
    formatError: withUnavailable(createErrorFormatter(log)),
    plugins: [imageBudgetPlugin(infra.rateLimiter, cfg.imageBudgetPerMinute), fullSchemaIntrospection<GatewayContext>(() => subSchema), requestIdPlugin, ...hooks.plugins],
    // automatic persisted queries: shared by every gateway through Redis when it is configured (README "Persisted queries")
    ...(infra.redis ? { persistedQueries: new RedisStringCache(infra.redis, `${cfg.redisKeyPrefix}gateway:`, APQ_TTL_SEC) } : {}),
    onSchema: (s) => {
      subSchema = buildSubscriptionSchema(s, subscriptions, infra.pubsub, runQuery);
    },
  });

  // subscription events' follow-up queries (subscriptions/schema.ts), run once the core has started
  async function runQuery(query: string, variables: Record<string, unknown>, ctx: GatewayContext) {
    // a fresh context per follow-up: the connection's tenant may have changed since the subscription began (a plan change)
    const r = await apollo.executeOperation({ query, variables }, { contextValue: { tenant: ctx.tenant, costExempt: true } });
    return r.body.kind === 'single' ? r.body.singleResult : { errors: [new GraphQLError('incremental delivery unsupported')] };
  }

  const usage = startUsageFlush(infra, platform, log);
  const answer = createGraphQLAnswer({ cfg, apollo, auth, edgePolicy: coreEdgePolicy(), hooks });
  const health = createHealthRoute({ cfg, infra, authenticator: auth.authenticator, state, log });
  const sse = createSse({ cfg, log, auth, apollo, schema: () => subSchema, state, limits, hooks });
  const serve = createRouter({ cfg, log, answer, health, state, schema: () => subSchema, routes: [...sse.routes, ...extraRoutes(extensions)] });
  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (path === METRICS_PATH) return void sendMetrics(req, res, cfg.metricsToken).catch((e) => log.error('metrics failed', { err: e }));
    instrument('gateway', tracing, req, res, () => serve(req, res, path));
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrorsWithJson(server);
  const sockets = startWebSockets({ server, cfg, auth, apollo, schema: () => subSchema, state, limits, hooks });

  const port = await listen(server, opts.port ?? cfg.gatewayPort, cfg.host, 'GATEWAY_PORT', { reusePort: cfg.gatewayReusePort });
  const url = `http://${cfg.host}:${port}/graphql`;
  const unregister = serveInProcess(opts.local, cfg, url, port, answer, state);
  log.info('gateway listening', { url });
  // open WebSockets and SSE streams are told to go away together: their clients resume elsewhere
  const streams = { dispose: async () => void (await Promise.all([sockets.dispose(), sse.dispose()])) };
  const shutdown = shutdownSequence(state, server, streams, [
    unregister,
    sockets.untrack,
    auth.stop,
    registered.stop,
    usage.stop,
    () => responseCache.stop(),
    () => apollo.stop(),
    () => tracing?.shutdown().catch(() => undefined),
  ]);
  return {
    url,
    port,
    server,
    keys: auth.keys,
    drain: shutdown.drain,
    stop: (deadline = Date.now() + cfg.shutdownGraceMs) => shutdown.stop(deadline),
  };
}

/** An unreachable subgraph's errors become SERVICE_UNAVAILABLE (gateway/unavailable.ts) before the shared formatter. */
function withUnavailable(format: ReturnType<typeof createErrorFormatter>): ReturnType<typeof createErrorFormatter> {
  return (formatted, error) => subgraphUnavailable(formatted, error) ?? format(formatted, error);
}
