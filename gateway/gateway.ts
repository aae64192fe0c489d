// The gateway: ApolloGateway on the static supergraph, authentication once at the edge, signed
// tenant context to subgraphs, depth/cost limits, and graphql-ws subscriptions on the same port.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloGateway } from '@apollo/gateway';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { parse, print, validate, GraphQLError, type GraphQLSchema, type ExecutionResult } from 'graphql';
import type { Config, SubgraphName } from '../lib/config.js';
import { statusOf } from '../lib/errors.js';
import './service-error-codes.js';
import { createErrorFormatter } from '../lib/graphql-errors.js';
import { handleGraphQL, listen, pathOf, sendJson } from '../lib/http.js';
import type { Infra } from '../lib/infra.js';
import type { Logger } from '../lib/logger.js';
import { VERSION } from '../lib/version.js';
import { ApiKeyVerifier } from './auth/api-key.js';
import { clientIp, createAuthenticator, type AuthResult } from './auth/authenticate.js';
import { listenForKeyInvalidations } from './auth/key-invalidation.js';
import { SignedDataSource, type GatewayContext } from './data-source.js';
import { limitError, measureOperation } from './limits.js';
import { PlatformClient } from './platform-client.js';
import { buildSubscriptionSchema, isSubscriptionOperation } from './subscriptions/schema.js';
import { fullSchemaIntrospection, fullSdl } from './subscriptions/introspection.js';
import { GRAPHIQL_STATIC, sendGraphiQL, sendGraphiQLAsset, wantsGraphiQL } from './graphiql.js';
import { answerPreflight, originAllowedWithoutKey, requestOrigin, responseOriginAllowed, setCorsHeaders } from '../lib/cors.js';

export const SUPERGRAPH_PATH = resolve(import.meta.dirname, '..', 'schema', 'supergraph.graphql');

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  keys: ApiKeyVerifier;
  stop(): Promise<void>;
}

export async function startGateway(opts: { cfg: Config; log: Logger; infra: Infra; port?: number; supergraphSdl?: string }): Promise<RunningGateway> {
  const { cfg, infra } = opts;
  const log = opts.log.child({ proc: 'gateway' });
  const supergraphSdl = opts.supergraphSdl ?? readFileSync(SUPERGRAPH_PATH, 'utf8');

  const platform = new PlatformClient(cfg.subgraphUrls.platform, cfg.internalSecret);
  const keys = new ApiKeyVerifier((appId, hash) => platform.verifyApiKey(appId, hash), infra.rateLimiter, infra.usage, {
    ttlMs: cfg.apiKeyCacheTtlMs,
  });
  const authenticator = createAuthenticator({ jwtSecret: cfg.jwtSecret, keys });
  const invalidations = listenForKeyInvalidations(infra.pubsub, keys, log);

  let apiSchema: GraphQLSchema | undefined;
  let subSchema: GraphQLSchema | undefined;
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => new SignedDataSource(cfg.subgraphUrls[name as SubgraphName] ?? '', cfg.internalSecret),
  });

  const limitsPlugin: ApolloServerPlugin<GatewayContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operationName, request }) {
          if (!apiSchema) return;
          const err = limitError(measureOperation(apiSchema, document, operationName, request.variables ?? {}), cfg.maxQueryDepth, cfg.maxQueryCost);
          if (err) throw err;
        },
      };
    },
  };

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    formatError: createErrorFormatter(log),
    includeStacktraceInErrorResponses: false,
    introspection: true,
    plugins: [limitsPlugin, fullSchemaIntrospection<GatewayContext>(() => subSchema)],
  });

  const runQuery = async (query: string, variables: Record<string, unknown>, ctx: GatewayContext) => {
    const r = await apollo.executeOperation({ query, variables }, { contextValue: ctx });
    return r.body.kind === 'single' ? r.body.singleResult : { errors: [new GraphQLError('incremental delivery unsupported')] };
  };
  gateway.onSchemaLoadOrUpdate(({ apiSchema: s }) => {
    apiSchema = s;
    subSchema = buildSubscriptionSchema(s, infra.pubsub, runQuery);
  });
  await apollo.start();

  // Usage counts are flushed to the platform in batches, not written per request.
  const flush = setInterval(() => {
    infra.usage
      .drain()
      .then((u) => platform.recordUsage(u))
      .catch((e) => log.warn('usage flush failed', { err: e }));
  }, 2000);
  flush.unref();

  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (answerPreflight(req, res, cfg.corsOrigins)) return;
    const origin = requestOrigin(req);
    if (path === '/graphql' && wantsGraphiQL(req, new URL(req.url ?? '/', 'http://x'))) return sendGraphiQL(req, res);
    if (path.startsWith(GRAPHIQL_STATIC)) {
      void sendGraphiQLAsset(req, res, path)
        .then((sent) => sent || sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] }))
        .catch((e) => log.error('graphiql asset failed', { err: e }));
      return;
    }
    if (path === '/graphql') {
      void (async () => {
        const auth = await authenticator.authenticate(req.headers, clientIp(req.socket.remoteAddress, req.headers));
        if (origin) setCorsHeaders(res, origin, responseOriginAllowed(req, origin, auth.ok ? { ok: true, kind: auth.tenant.kind } : auth, cfg.corsOrigins));
        if (auth.rateLimit) {
          res.setHeader('x-ratelimit-limit', String(auth.rateLimit.limit));
          res.setHeader('x-ratelimit-remaining', String(auth.rateLimit.remaining));
          res.setHeader('x-ratelimit-reset', String(Math.ceil(auth.rateLimit.resetMs / 1000)));
        }
        if (!auth.ok) return rejectAuth(res, auth);
        await handleGraphQL(apollo, req, res, async () => ({ tenant: auth.tenant }));
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
    if (path === '/health') return sendJson(res, 200, { status: 'ok', service: 'gateway', version: VERSION, timestamp: new Date().toISOString() });
    if (path === '/health/ready' || path === '/health/detailed') {
      void readiness(cfg).then((r) => sendJson(res, r.ok ? 200 : 503, { status: r.ok ? 'ok' : 'degraded', service: 'gateway', version: VERSION, timestamp: new Date().toISOString(), components: r.components }));
      return;
    }
    sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] });
  });
  server.keepAliveTimeout = 65_000;

  const wss = new WebSocketServer({ server, path: '/graphql' });
  const ws = useServer<Record<string, unknown>, { tenant?: GatewayContext['tenant'] }>(
    {
      schema: () => subSchema!,
      onConnect: async (ctx) => {
        const req = ctx.extra.request;
        // the upgrade request's Origin, never one from connectionParams: key allow-lists apply to sockets too
        const origin = requestOrigin(req);
        const headers = { ...lowerCaseKeys(ctx.connectionParams ?? {}), origin };
        const auth = await authenticator.authenticate(headers, clientIp(req.socket.remoteAddress, req.headers));
        if (!auth.ok) return false;
        if (origin && auth.tenant.kind !== 'key' && !originAllowedWithoutKey(req, origin, cfg.corsOrigins)) return false;
        ctx.extra.tenant = auth.tenant;
        return true;
      },
      context: (ctx) => ({ tenant: ctx.extra.tenant! }),
      onSubscribe: (_ctx, _id, payload) => {
        // Queries and mutations over the socket go through the planner; subscriptions through subSchema.
        let doc;
        try {
          doc = parse(payload.query);
        } catch (e) {
          return [new GraphQLError((e as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 } })];
        }
        const errors = validate(subSchema!, doc);
        if (errors.length) return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } }));
        const err = limitError(measureOperation(subSchema!, doc, payload.operationName, payload.variables ?? {}), cfg.maxQueryDepth, cfg.maxQueryCost);
        if (err) return [err];
        return undefined;
      },
      execute: async (args) => {
        if (isSubscriptionOperation(args.document, args.operationName)) throw new Error('unreachable');
        const ctx = args.contextValue as GatewayContext;
        const r = await apollo.executeOperation(
          { query: print(args.document), variables: (args.variableValues ?? undefined) as Record<string, unknown> | undefined, operationName: args.operationName ?? undefined },
          { contextValue: ctx },
        );
        return (r.body.kind === 'single' ? r.body.singleResult : { errors: [new GraphQLError('incremental delivery unsupported')] }) as ExecutionResult;
      },
    },
    wss,
  );

  const port = await listen(server, opts.port ?? cfg.gatewayPort, cfg.host, 'GATEWAY_PORT');
  const url = `http://${cfg.host}:${port}/graphql`;
  log.info('gateway listening', { url });
  return {
    url,
    port,
    server,
    keys,
    async stop() {
      clearInterval(flush);
      await invalidations.stop();
      await infra.usage.drain().then((u) => platform.recordUsage(u)).catch(() => undefined);
      await ws.dispose();
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      await apollo.stop();
    },
  };
}

function rejectAuth(res: import('node:http').ServerResponse, auth: Extract<AuthResult, { ok: false }>): void {
  const status = statusOf(auth.code);
  const headers: Record<string, string> = {};
  if (auth.code === 'RATE_LIMITED' && auth.rateLimit) headers['retry-after'] = String(Math.max(1, Math.ceil(auth.rateLimit.resetMs / 1000)));
  sendJson(res, status, { errors: [{ message: auth.message, extensions: { code: auth.code, status } }] }, headers);
}

function lowerCaseKeys(o: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}

async function readiness(cfg: Config): Promise<{ ok: boolean; components: Record<string, unknown> }> {
  const components: Record<string, unknown> = {};
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
  return { ok, components };
}

