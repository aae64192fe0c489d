// graphql-ws on the gateway's /graphql: authenticated once in connection_init (the upgrade request's
// Origin applies, as over HTTP), the socket then following its credentials (live-connections.ts).
// Subscriptions run on the full schema (subscriptions/schema.ts); queries and mutations over the
// socket go through Apollo like any request, under the same input limits. Each subscribe message
// first passes the features' socket hooks (registered operations: a registered document put in, or
// the refusal), then is parsed and validated once here (graphql-ws is handed the result).
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { getOperationAST, parse, print, validate, GraphQLError, type GraphQLSchema, type ExecutionResult } from 'graphql';
import type { ApolloServer } from '@apollo/server';
import type { Config } from '../lib/config.js';
import { originAllowedWithoutKey, requestOrigin } from '../lib/cors.js';
import { trackWebSockets } from '../lib/metrics.js';
import type { EdgeAuth } from './auth/edge-auth.js';
import type { GatewayContext } from './data-source.js';
import type { RequestHooks } from './hooks.js';
import { limitError, measureOperation } from './limits.js';
import { subscribeRequestErrors } from './request-policy.js';
import { isSubscriptionOperation } from './subscriptions/schema.js';
import { SHUTTING_DOWN_MESSAGE, type ShutdownState } from './shutdown.js';

export interface GatewaySockets {
  /** close every socket (1001: going away, clients reconnect elsewhere) */
  dispose(): Promise<void>;
  /** stop reporting the open sockets' count */
  untrack(): void;
}

export function startWebSockets(deps: {
  server: Server;
  cfg: Config;
  auth: EdgeAuth;
  apollo: ApolloServer<GatewayContext>;
  /** the full schema (Subscription root included), loaded before the server listens */
  schema: () => GraphQLSchema | undefined;
  state: ShutdownState;
  limits: { maxTokens: number; maxAliases: number };
  /** the features' request hooks: `beforeSocketOperation` per subscribe message, `written` told of each mutation executed here */
  hooks: Pick<RequestHooks, 'written' | 'beforeSocketOperation'>;
}): GatewaySockets {
  const { server, cfg, auth: edge, apollo, state } = deps;
  const { maxTokens, maxAliases } = deps.limits;
  const schema = () => deps.schema()!;
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const untrack = trackWebSockets('gateway', () => wss.clients.size);
  const ws = useServer<Record<string, unknown>, { tenant?: GatewayContext['tenant']; forget?: () => void }>(
    {
      schema,
      onConnect: async (ctx) => {
        if (state.stopping) return false;
        const req = ctx.extra.request;
        // the upgrade request's Origin, never one from connectionParams: key allow-lists apply to sockets too
        const origin = requestOrigin(req);
        const headers = { ...lowerCaseKeys(ctx.connectionParams ?? {}), origin };
        const auth = await edge.authenticator.authenticate(headers, edge.clientAddress(req.socket.remoteAddress, req.headers));
        if (!auth.ok) return false;
        if (origin && auth.tenant.kind !== 'key' && !originAllowedWithoutKey(req, origin, cfg.corsOrigins)) return false;
        ctx.extra.tenant = auth.tenant;
        ctx.extra.forget = edge.connections.add(ctx.extra.socket, auth.tenant, auth.credentials);
        return true;
      },
      onClose: (ctx) => ctx.extra.forget?.(),
      context: (ctx) => ({ tenant: ctx.extra.tenant! }),
      onSubscribe: async (ctx, _id, payload) => {
        let query = payload.query;
        for (const hook of deps.hooks.beforeSocketOperation) {
          const outcome = await hook(payload, ctx.extra.tenant!);
          if (outcome && 'refused' in outcome) return [outcome.refused];
          if (outcome) query = outcome.query;
        }
        // Queries and mutations over the socket go through the planner; subscriptions through the full schema.
        let doc;
        try {
          doc = parse(query, { maxTokens });
        } catch (e) {
          return [new GraphQLError((e as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 } })];
        }
        const errors = validate(schema(), doc);
        if (errors.length) return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } }));
        const refused = subscribeRequestErrors(schema(), doc, payload.operationName, payload.variables);
        if (refused.length) return refused;
        const err = limitError(measureOperation(schema(), doc, payload.operationName, payload.variables ?? {}), cfg.maxQueryDepth, cfg.maxQueryCost, maxAliases);
        if (err) return [err];
        // parsed and validated once: graphql-ws runs these arguments as they are
        return { schema: schema(), document: doc, operationName: payload.operationName, variableValues: payload.variables };
      },
      execute: async (args) => {
        if (state.closed) return { errors: [new GraphQLError(SHUTTING_DOWN_MESSAGE, { extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } })] };
        if (isSubscriptionOperation(args.document, args.operationName)) throw new Error('unreachable');
        const ctx = args.contextValue as GatewayContext;
        const r = await apollo.executeOperation(
          { query: print(args.document), variables: (args.variableValues ?? undefined) as Record<string, unknown> | undefined, operationName: args.operationName ?? undefined },
          { contextValue: ctx },
        );
        if (getOperationAST(args.document, args.operationName)?.operation === 'mutation') for (const written of deps.hooks.written) await written(ctx.tenant);
        if (r.body.kind !== 'single') return { errors: [new GraphQLError('incremental delivery unsupported')] };
        // Apollo's result carries formatted (plain) errors; graphql-ws serialises GraphQLErrors (toJSON)
        const { errors, ...rest } = r.body.singleResult;
        return { ...rest, ...(errors ? { errors: errors.map((e) => new GraphQLError(e.message, { path: e.path, extensions: e.extensions })) } : {}) } as ExecutionResult;
      },
    },
    wss,
  );
  return { dispose: async () => void (await ws.dispose()), untrack };
}

function lowerCaseKeys(o: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}
