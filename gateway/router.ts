// The gateway's HTTP paths, in order: CORS preflight, the extensions' routes (hooks.ts), the
// browser's paths (GraphiQL), /graphql (graphql-answer.ts), then the public ones (the SDL, the
// service description, health) and 404 in the gateway's error shape. /metrics and tracing wrap it
// (gateway.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { readGraphQLCall, sendAnswer, sendJson } from '../lib/http.js';
import { answerPreflight, requestOrigin, setCorsHeaders } from '../lib/cors.js';
import type { Config } from '../lib/config.js';
import type { Logger } from '../lib/logger.js';
import { VERSION } from '../lib/version.js';
import { BARE_GET_MESSAGE, serveGraphiQLPaths } from './graphiql.js';
import { fullSdl } from './subscriptions/introspection.js';
import { matchRoute, type GatewayRoute } from './hooks.js';
import type { AnswerGraphQL } from './graphql-answer.js';
import type { HealthRoute } from './health.js';
import { stoppingAnswer, type ShutdownState } from './shutdown.js';

export type ServePath = (req: IncomingMessage, res: ServerResponse, path: string) => void;

const INTERNAL = { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] };

export function createRouter(deps: {
  cfg: Config;
  log: Logger;
  answer: AnswerGraphQL;
  health: HealthRoute;
  state: ShutdownState;
  /** the full schema (Subscription root included), once loaded */
  schema: () => GraphQLSchema | undefined;
  routes: readonly GatewayRoute[];
}): ServePath {
  const { cfg, log, answer, health, state, schema, routes } = deps;
  return (req, res, path) => {
    if (answerPreflight(req, res, cfg.corsOrigins)) return;
    const extra = routes.length ? matchRoute(routes, req, path) : undefined;
    if (extra) return void Promise.resolve(extra.handle(req, res)).catch(failed(res, `route ${extra.path} failed`));
    if (serveGraphiQLPaths(req, res, path, log)) return;
    if (path === '/graphql' && state.stopping) return sendAnswer(req, res, stoppingAnswer());
    if (path === '/graphql') {
      void (async () => {
        const call = await readGraphQLCall(req, res);
        if (call) sendAnswer(req, res, await answer(call, req.socket.remoteAddress));
      })().catch(failed(res, 'request failed'));
      return;
    }
    // the remaining paths are public (health, the SDL, 404s)
    setCorsHeaders(res, requestOrigin(req), true);
    const s = path === '/graphql/schema.graphql' ? schema() : undefined;
    if (s) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(fullSdl(s));
    }
    if (path === '/') return sendJson(res, 200, { service: 'gateway', version: VERSION, graphql: '/graphql', schema: '/graphql/schema.graphql', health: '/health', message: BARE_GET_MESSAGE });
    if (health(req, res, path)) return;
    sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] });
  };

  function failed(res: ServerResponse, what: string) {
    return (e: unknown) => {
      log.error(what, { err: e });
      if (!res.headersSent) sendJson(res, 500, INTERNAL);
    };
  }
}
