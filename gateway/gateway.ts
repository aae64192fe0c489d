// The platform's gateway: the federation core (gateway/core.ts: ApolloGateway on the static
// supergraph, our execution path, the input limits) with the platform's policy layered on it:
// authentication once at the edge, signed tenant context to subgraphs, CORS, the image budget,
// health, and graphql-ws subscriptions on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { getOperationAST, parse, print, validate, GraphQLError, type GraphQLSchema, type ExecutionResult } from 'graphql';
import type { Config, SubgraphName } from '../lib/config.js';
import { statusOf } from '../lib/errors.js';
import './service-error-codes.js';
import { createErrorFormatter } from '../lib/graphql-errors.js';
import { answerGraphQL, closeServer, graphqlOperationLabel, jsonAnswer, listen, MiB, pathOf, readGraphQLCall, sendAnswer, sendJson, type GraphQLAnswer, type GraphQLCall } from '../lib/http.js';
import type { Infra } from '../lib/infra.js';
import type { Logger } from '../lib/logger.js';
import { VERSION } from '../lib/version.js';
import { SUPER_ADMIN_SCOPE } from '../lib/tenant.js';
import { clientAddressResolver } from '../lib/client-address.js';
import { ApiKeyVerifier } from './auth/api-key.js';
import { clientIp, createAuthenticator, type AuthResult } from './auth/authenticate.js';
import { listenForKeyInvalidations } from './auth/key-invalidation.js';
import { OperatorVerifier } from './auth/operators.js';
import { JwksVerifier } from './auth/jwks.js';
import { LiveConnections } from './subscriptions/live-connections.js';
import { SignedDataSource, type GatewayContext } from './data-source.js';
import { coreEdgePolicy, coreLimits, startGatewayCore } from './core.js';
import type { LocalHandler, LocalRoutes } from '../lib/local-transport.js';
import { limitError, measureOperation } from './limits.js';
import { subscribeRequestErrors } from './request-policy.js';
import { SUBGRAPH_RETRY_AFTER_MS, subgraphUnavailable } from './unavailable.js';
import { answerClientErrorsWithJson } from '../lib/input-policy.js';
import { PlatformClient } from './platform-client.js';
import { buildSubscriptionSchema, isSubscriptionOperation } from './subscriptions/schema.js';
import { fullSchemaIntrospection, fullSdl } from './subscriptions/introspection.js';
import { imageBudgetPlugin } from './image-budget.js';
import { BARE_GET_MESSAGE, GRAPHIQL_STATIC, isBareGet, sendGraphiQL, sendGraphiQLAsset, wantsPage } from './graphiql.js';
import { answerPreflight, corsHeaders, originAllowedWithoutKey, requestOrigin, responseOriginAllowed, setCorsHeaders } from '../lib/cors.js';
import { METRICS_PATH, observeLocalRequest, sendMetrics, trackWebSockets } from '../lib/metrics.js';
import { instrument, startTracing } from '../lib/telemetry.js';
import { requestIdPlugin } from './request-id.js';
import { DRAINING, isDraining, remainingMs } from '../lib/lifecycle.js';
import { countersComponent } from '../lib/redis-fallback.js';
import { ResponseCache, responseCacheOptions } from './response-cache/response-cache.js';

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

  const platform = new PlatformClient(cfg.subgraphUrls.platform, cfg.internalSecret);
  const keys = new ApiKeyVerifier((appId, hash) => platform.verifyApiKey(appId, hash), infra.rateLimiter, infra.usage, {
    ttlMs: cfg.apiKeyCacheTtlMs,
    unknownKeysPerMinute: cfg.unknownKeysPerMinute,
  });
  const proxies = clientAddressResolver(cfg.trustedProxies);
  const operators = new OperatorVerifier((userId, code) => platform.platformOperator(userId, code), { ttlMs: cfg.apiKeyCacheTtlMs });
  const jwks = cfg.jwt.jwks.length
    ? new JwksVerifier({ issuers: cfg.jwt.jwks, audience: cfg.jwt.audience, maxLifetimeSec: cfg.jwt.maxLifetimeSec, skewSec: cfg.jwt.clockSkewSec, cacheMs: cfg.jwt.jwksCacheMs, minRefreshMs: cfg.jwt.jwksMinRefreshMs, log })
    : undefined;
  const authenticator = createAuthenticator({ jwtSecret: cfg.jwt, keys, operators, jwks, userLimit: { limiter: infra.rateLimiter, perMinute: cfg.jwtRateLimitPerMinute } });
  // open WebSockets follow their credentials (subscriptions/live-connections.ts)
  const connections = new LiveConnections({ keys, operators, log });
  const invalidations = listenForKeyInvalidations(infra.pubsub, { keys, operators, connections }, log);

  let subSchema: GraphQLSchema | undefined;
  // answers of queries kept per tenant partition, invalidated by events and writes (docs/response-cache.md)
  const responseCache = ResponseCache.create(responseCacheOptions(), { pubsub: infra.pubsub, redis: infra.redis, redisKeyPrefix: cfg.redisKeyPrefix, log });
  const tracing = await startTracing(cfg, 'gateway', log);
  apolloTelemetryEnv(cfg);
  const limits = coreLimits(cfg.maxQueryDepth, cfg.maxQueryCost);
  const edgePolicy = coreEdgePolicy();
  // the federation core (gateway/core.ts) with the platform's layer: signed tenant context to the
  // subgraphs at the configured addresses, the image budget, the Subscription root in introspection
  const { apollo } = await startGatewayCore<GatewayContext>({
    supergraphSdl,
    singleFetch: cfg.gatewaySingleFetch,
    shareInFlight: cfg.gatewayShareInFlight,
    limits,
    dataSource: ({ name }, inFlight) => new SignedDataSource(cfg.subgraphUrls[name as SubgraphName] ?? '', cfg.internalSecret, name, inFlight, tracing, opts.local),
    formatError: withUnavailable(createErrorFormatter(log)),
    plugins: [imageBudgetPlugin(infra.rateLimiter, cfg.imageBudgetPerMinute), fullSchemaIntrospection<GatewayContext>(() => subSchema), requestIdPlugin, responseCache.plugin<GatewayContext>()],
    onSchema: (s) => {
      subSchema = buildSubscriptionSchema(s, infra.pubsub, runQuery);
    },
  });
  const { maxTokens, maxAliases } = limits;

  // subscription events' follow-up queries (subscriptions/schema.ts), run once the core has started
  async function runQuery(query: string, variables: Record<string, unknown>, ctx: GatewayContext) {
    // a fresh context per follow-up: the connection's tenant may have changed since the subscription began (a plan change)
    const r = await apollo.executeOperation({ query, variables }, { contextValue: { tenant: ctx.tenant } });
    return r.body.kind === 'single' ? r.body.singleResult : { errors: [new GraphQLError('incremental delivery unsupported')] };
  }

  // Usage counts are flushed to the platform in batches, not written per request.
  const flush = setInterval(() => {
    infra.usage
      .drain()
      .then((u) => platform.recordUsage(u))
      .catch((e) => log.warn('usage flush failed', { err: e }));
  }, 2000);
  flush.unref();

  // set when the drain begins: new work over HTTP and WebSocket is refused with a clear answer
  let stopping = false;
  // set once drained: in-process calls are refused too (Apollo is stopping)
  let closed = false;
  /** refused once stop() began: decided when a request arrives, so one already being read is still answered */
  const stoppingAnswer = (): GraphQLAnswer =>
    jsonAnswer(503, { errors: [{ message: 'The gateway is shutting down; retry shortly', extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } }] }, 'graphql (stopping)', { 'retry-after': '1', connection: 'close' });
  /** POST/GET /graphql, over HTTP or in process (the REST bridge's calls): authentication, CORS, limits, Apollo. */
  /** `clientAddress`: the client's address as an in-process caller resolved it (else from the request) */
  const answer = async (call: GraphQLCall, remoteAddress: string | undefined, clientAddress?: string): Promise<GraphQLAnswer> => {
    const route = graphqlOperationLabel(undefined, call.url);
    const origin = requestOrigin(call);
    const auth = await authenticator.authenticate(call.headers, clientAddress ?? clientIp(remoteAddress, call.headers, proxies, cfg.internalSecret));
    const headers = origin ? corsHeaders(origin, responseOriginAllowed(call, origin, auth.ok ? { ok: true, kind: auth.tenant.kind } : auth, cfg.corsOrigins)) : {};
    if (auth.rateLimit) {
      headers['x-ratelimit-limit'] = String(auth.rateLimit.limit);
      headers['x-ratelimit-remaining'] = String(auth.rateLimit.remaining);
      headers['x-ratelimit-reset'] = String(Math.ceil(auth.rateLimit.resetMs / 1000));
    }
    const a = auth.ok ? await responseCache.serve(call, auth.tenant, (cached) => answerGraphQL(apollo, call, async () => ({ tenant: auth.tenant, ...cached }), MiB, edgePolicy)) : refusal(auth, route);
    // in place: an answer given as a value writes its body only when read (lib/http.ts)
    a.headers = { ...headers, ...a.headers };
    return a;
  };
  // the REST bridge of this process calls the gateway without HTTP (lib/local-transport.ts), as from loopback
  const serveLocal: LocalHandler = async (headers, body, parsed, clientAddress) => {
    const started = performance.now();
    const call: GraphQLCall = parsed !== undefined ? { method: 'POST', headers, url: '/graphql', parsed } : { method: 'POST', headers, url: '/graphql', raw: Buffer.from(body) };
    const a = closed ? stoppingAnswer() : await answer(call, '127.0.0.1', clientAddress);
    observeLocalRequest('gateway', a.route, a.status, performance.now() - started);
    // `text` read through: serialised only if the caller reads it instead of `value`
    return {
      status: a.status,
      headers: a.headers,
      value: a.value,
      get text() {
        return a.body;
      },
    };
  };
  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (path === METRICS_PATH) return void sendMetrics(req, res, cfg.metricsToken).catch((e) => log.error('metrics failed', { err: e }));
    instrument('gateway', tracing, req, res, () => serve(req, res, path));
  });
  const serve = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (answerPreflight(req, res, cfg.corsOrigins)) return;
    const origin = requestOrigin(req);
    const url = new URL(req.url ?? '/', 'http://x');
    // every browser page of the gateway is GraphiQL: never Apollo's landing page (it loads third-party script)
    if (path === '/graphql' && wantsPage(req)) return sendGraphiQL(req, res, url);
    if (path === '/' && wantsPage(req)) return void res.writeHead(302, { location: '/graphql', 'cache-control': 'no-store' }).end();
    if (path === '/graphql' && isBareGet(req, url)) return sendJson(res, 400, { errors: [{ message: BARE_GET_MESSAGE, extensions: { code: 'BAD_REQUEST', status: 400 } }] });
    if (path.startsWith(GRAPHIQL_STATIC)) {
      void sendGraphiQLAsset(req, res, path)
        .then((sent) => sent || sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] }))
        .catch((e) => log.error('graphiql asset failed', { err: e }));
      return;
    }
    if (path === '/graphql' && stopping) return sendAnswer(req, res, stoppingAnswer());
    if (path === '/graphql') {
      void (async () => {
        const call = await readGraphQLCall(req, res);
        if (call) sendAnswer(req, res, await answer(call, req.socket.remoteAddress));
      })().catch((e) => {
        log.error('request failed', { err: e });
        if (!res.headersSent) sendJson(res, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] });
      });
      return;
    }
    // the remaining paths are public (health, the SDL, 404s)
    setCorsHeaders(res, origin, true);
    if (path === '/graphql/schema.graphql' && subSchema) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(fullSdl(subSchema));
    }
    if (path === '/') return sendJson(res, 200, { service: 'gateway', version: VERSION, graphql: '/graphql', schema: '/graphql/schema.graphql', health: '/health', message: BARE_GET_MESSAGE });
    if (path === '/health') return sendJson(res, 200, { status: 'ok', service: 'gateway', version: VERSION, timestamp: new Date().toISOString() });
    if (path === '/health/ready') {
      // the process itself (docs/deploy.md): never the subgraphs, whose health is /health/detailed's
      const draining = stopping || isDraining();
      const own = redisComponents(infra);
      const head = { service: 'gateway', version: VERSION, timestamp: new Date().toISOString(), components: own.components };
      if (draining) return sendJson(res, 503, { ...DRAINING, ...head });
      return sendJson(res, 200, { status: own.degraded ? 'degraded' : 'ok', ...head });
    }
    if (path === '/health/detailed') {
      void (async () => {
        // Details (latencies, versions, error text) only for a super-admin token (docs/security.md);
        // everyone else sees up or down per component.
        const auth = await authenticator.authenticate(req.headers, undefined);
        const detailed = !!auth?.ok && auth.tenant.kind === 'user' && auth.tenant.scopes.includes(SUPER_ADMIN_SCOPE);
        const r = await dependencies(cfg, infra);
        const components = detailed ? r.components : publicComponents(r.components);
        sendJson(res, r.ok ? 200 : 503, { status: r.ok && !r.degraded ? 'ok' : 'degraded', service: 'gateway', version: VERSION, timestamp: new Date().toISOString(), components });
      })().catch((e) => {
        log.error('health check failed', { err: e });
        if (!res.headersSent) sendJson(res, 503, { status: 'degraded', service: 'gateway' });
      });
      return;
    }
    sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] });
  };
  server.keepAliveTimeout = 65_000;
  answerClientErrorsWithJson(server);

  const wss = new WebSocketServer({ server, path: '/graphql' });
  const untrackSockets = trackWebSockets('gateway', () => wss.clients.size);
  const ws = useServer<Record<string, unknown>, { tenant?: GatewayContext['tenant']; forget?: () => void }>(
    {
      schema: () => subSchema!,
      onConnect: async (ctx) => {
        if (stopping) return false;
        const req = ctx.extra.request;
        // the upgrade request's Origin, never one from connectionParams: key allow-lists apply to sockets too
        const origin = requestOrigin(req);
        const headers = { ...lowerCaseKeys(ctx.connectionParams ?? {}), origin };
        const auth = await authenticator.authenticate(headers, clientIp(req.socket.remoteAddress, req.headers, proxies, cfg.internalSecret));
        if (!auth.ok) return false;
        if (origin && auth.tenant.kind !== 'key' && !originAllowedWithoutKey(req, origin, cfg.corsOrigins)) return false;
        ctx.extra.tenant = auth.tenant;
        ctx.extra.forget = connections.add(ctx.extra.socket, auth.tenant, auth.credentials);
        return true;
      },
      onClose: (ctx) => ctx.extra.forget?.(),
      context: (ctx) => ({ tenant: ctx.extra.tenant! }),
      onSubscribe: (_ctx, _id, payload) => {
        // Queries and mutations over the socket go through the planner; subscriptions through subSchema.
        let doc;
        try {
          doc = parse(payload.query, { maxTokens });
        } catch (e) {
          return [new GraphQLError((e as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 } })];
        }
        const errors = validate(subSchema!, doc);
        if (errors.length) return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } }));
        const refused = subscribeRequestErrors(subSchema!, doc, payload.operationName, payload.variables);
        if (refused.length) return refused;
        const err = limitError(measureOperation(subSchema!, doc, payload.operationName, payload.variables ?? {}), cfg.maxQueryDepth, cfg.maxQueryCost, maxAliases);
        if (err) return [err];
        return undefined;
      },
      execute: async (args) => {
        if (closed) return { errors: [new GraphQLError('The gateway is shutting down; retry shortly', { extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } })] };
        if (isSubscriptionOperation(args.document, args.operationName)) throw new Error('unreachable');
        const ctx = args.contextValue as GatewayContext;
        const r = await apollo.executeOperation(
          { query: print(args.document), variables: (args.variableValues ?? undefined) as Record<string, unknown> | undefined, operationName: args.operationName ?? undefined },
          { contextValue: ctx },
        );
        if (getOperationAST(args.document, args.operationName)?.operation === 'mutation') await responseCache.written(ctx.tenant);
        if (r.body.kind !== 'single') return { errors: [new GraphQLError('incremental delivery unsupported')] };
        // Apollo's result carries formatted (plain) errors; graphql-ws serialises GraphQLErrors (toJSON)
        const { errors, ...rest } = r.body.singleResult;
        return { ...rest, ...(errors ? { errors: errors.map((e) => new GraphQLError(e.message, { path: e.path, extensions: e.extensions })) } : {}) } as ExecutionResult;
      },
    },
    wss,
  );

  const port = await listen(server, opts.port ?? cfg.gatewayPort, cfg.host, 'GATEWAY_PORT');
  const url = `http://${cfg.host}:${port}/graphql`;
  // under the URL the bridge is configured with too (cfg.host may be a wildcard address)
  const unregister = [url, ...(cfg.gatewayUrl !== url && new URL(cfg.gatewayUrl).port === String(port) ? [cfg.gatewayUrl] : [])].map((u) => opts.local?.register(u, serveLocal));
  log.info('gateway listening', { url });
  let drained: Promise<void> | undefined;
  /** Stop taking work over HTTP and WebSocket and finish the requests in flight; in-process calls (the bridge of this process) are still answered. */
  const drain = (deadline: number) => {
    stopping = true;
    // HTTP requests in flight are answered; WebSocket clients are told the server is going away (1001) and reconnect elsewhere
    return (drained ??= Promise.all([closeServer(server, remainingMs(deadline)), ws.dispose()]).then(() => undefined));
  };
  return {
    url,
    port,
    server,
    keys,
    drain,
    async stop(deadline = Date.now() + cfg.shutdownGraceMs) {
      await drain(deadline);
      closed = true;
      unregister.forEach((f) => f?.());
      clearInterval(flush);
      untrackSockets();
      await invalidations.stop();
      await responseCache.stop();
      await infra.usage.drain().then((u) => platform.recordUsage(u)).catch(() => undefined);
      await apollo.stop();
      await tracing?.shutdown().catch(() => undefined);
    },
  };
}

/**
 * @apollo/gateway sends usage telemetry to Apollo (and probes cloud metadata addresses) unless
 * APOLLO_TELEMETRY_DISABLED is set when it is constructed: off unless the operator opts in with
 * APOLLO_TELEMETRY=1 (a multi-tenant platform does not phone home unasked).
 */
export function apolloTelemetryEnv(cfg: Pick<Config, 'apolloTelemetry'>, env: NodeJS.ProcessEnv = process.env): void {
  if (!cfg.apolloTelemetry) env.APOLLO_TELEMETRY_DISABLED = '1';
}

/** An unreachable subgraph's errors become SERVICE_UNAVAILABLE (gateway/unavailable.ts) before the shared formatter. */
function withUnavailable(format: ReturnType<typeof createErrorFormatter>): ReturnType<typeof createErrorFormatter> {
  return (formatted, error) => subgraphUnavailable(formatted, error) ?? format(formatted, error);
}

/**
 * The answer to a request refused before it runs. A refusal for want of a service (the key or
 * operator lookup while the platform subgraph is unreachable, a replica restarting) says when to
 * retry, like a subgraph found unreachable (gateway/unavailable.ts): Retry-After and meta.retryAfterMs.
 */
export function refusal(auth: Extract<AuthResult, { ok: false }>, route: string): GraphQLAnswer {
  const status = statusOf(auth.code);
  const headers: Record<string, string> = {};
  if (auth.code === 'RATE_LIMITED' && auth.rateLimit) headers['retry-after'] = String(Math.max(1, Math.ceil(auth.rateLimit.resetMs / 1000)));
  const unavailable = auth.code === 'SERVICE_UNAVAILABLE';
  if (unavailable) headers['retry-after'] = String(SUBGRAPH_RETRY_AFTER_MS / 1000);
  const extensions = { code: auth.code, status, ...(auth.reason ? { reason: auth.reason } : {}), ...(unavailable ? { meta: { retryAfterMs: SUBGRAPH_RETRY_AFTER_MS } } : {}) };
  return jsonAnswer(status, { errors: [{ message: auth.message, extensions }] }, route, headers);
}

function lowerCaseKeys(o: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}

/** Up or down per component and its latency, nothing else (no error text, versions or model details). */
function publicComponents(components: Record<string, unknown>): Record<string, { status: string; latency_ms?: number }> {
  const out: Record<string, { status: string; latency_ms?: number }> = {};
  for (const [name, c] of Object.entries(components) as [string, { status?: string; latency_ms?: unknown }][]) {
    out[name] = { status: c.status === 'ok' || c.status === 'degraded' ? c.status : 'unavailable', ...(typeof c.latency_ms === 'number' ? { latency_ms: c.latency_ms } : {}) };
  }
  return out;
}

/** This process's Redis connection and how its counters count now (in memory while Redis is unreachable). */
function redisComponents(infra: Infra): { degraded: boolean; components: Record<string, unknown> } {
  const components: Record<string, unknown> = {};
  const lost = !!infra.redis && !infra.redis.isReady;
  if (infra.redis) components.redis = lost ? { status: 'degraded', detail: 'unreachable: rate limits per process, events not delivered across processes' } : { status: 'ok' };
  const counting = countersComponent();
  if (counting) components.counters = counting;
  return { degraded: lost || counting?.status === 'degraded', components };
}

/**
 * The gateway's dependencies for /health/detailed: every subgraph must be ready (else 503); Redis
 * lost is a degradation (200, status "degraded"): requests are still served, counters count in
 * this process (listed under `counters`).
 */
async function dependencies(cfg: Config, infra: Infra): Promise<{ ok: boolean; degraded: boolean; components: Record<string, unknown> }> {
  const own = redisComponents(infra);
  const components: Record<string, unknown> = { ...own.components };
  const degraded = own.degraded;
  let ok = true;
  await Promise.all(
    Object.entries(cfg.subgraphUrls).map(async ([name, url]) => {
      const started = performance.now();
      try {
        const r = await fetch(url.replace(/\/graphql$/, '/health/ready'), { signal: AbortSignal.timeout(3000) });
        const body = (await r.json()) as Record<string, unknown>;
        components[name] = { status: r.ok ? 'ok' : 'unavailable', latency_ms: Math.round(performance.now() - started), ...body };
        if (!r.ok) ok = false;
      } catch (e) {
        ok = false;
        components[name] = { status: 'unavailable', error: (e as Error).message };
      }
    }),
  );
  return { ok, degraded, components };
}

