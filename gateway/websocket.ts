// graphql-ws on the gateway's /graphql: authenticated once in connection_init (the upgrade request's
// Origin applies, as over HTTP), the socket then following its credentials (live-connections.ts).
// Subscriptions run on the full schema (subscriptions/schema.ts); queries and mutations over the
// socket go through Apollo like any request, under the same input limits (subscriptions/operation.ts),
// after the features' hooks (registered operations: a registered document put in, or the refusal).
// Resumable: a subscribe message's `extensions.resumeFrom` (an event id received earlier) replays
// the tenant's events missed since, and every subscription result carries `extensions.eventId`.
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError } from 'graphql';
import { originAllowedWithoutKey, requestOrigin } from '../lib/cors.js';
import { trackWebSockets } from '../lib/metrics.js';
import type { GatewayContext } from './data-source.js';
import { checkOperation, executeThroughApollo, operationThroughHooks, resumePoint, type StreamingTransportDeps } from './subscriptions/operation.js';
import { isSubscriptionOperation, type SubscriptionContext } from './subscriptions/schema.js';
import { SHUTTING_DOWN_MESSAGE } from './shutdown.js';

export interface GatewaySockets {
  /** close every socket (1001: going away, clients reconnect elsewhere) */
  dispose(): Promise<void>;
  /** stop reporting the open sockets' count */
  untrack(): void;
}

export function startWebSockets(deps: StreamingTransportDeps & { server: Server }): GatewaySockets {
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
      // one context per operation: its tenant, and its place in the tenant's event stream
      context: (ctx, _id, payload): SubscriptionContext => {
        const at = resumePoint(payload);
        return { tenant: ctx.extra.tenant!, stream: { resumeFrom: 'resumeFrom' in at ? at.resumeFrom : undefined } };
      },
      onSubscribe: async (ctx, _id, payload) => {
        // the features' hooks first (registered operations), then the checks; graphql-ws is handed the parsed document
        const through = await operationThroughHooks(deps.hooks, payload, ctx.extra.tenant!);
        if ('refused' in through) return [through.refused];
        // Queries and mutations over the socket go through the planner; subscriptions through the full schema.
        const checked = checkOperation(schema(), through.req, { maxTokens, maxAliases, maxDepth: cfg.maxQueryDepth, maxCost: cfg.maxQueryCost });
        if ('errors' in checked) return checked.errors;
        const at = resumePoint(payload);
        if ('error' in at) return [at.error];
        return { schema: schema(), document: checked.doc, operationName: payload.operationName, variableValues: payload.variables };
      },
      onNext: (_ctx, _id, _payload, args, result) => {
        const eventId = (args.contextValue as SubscriptionContext).stream?.lastEventId;
        return eventId ? ({ ...result, extensions: { ...result.extensions, eventId } } as typeof result) : undefined;
      },
      execute: async (args) => {
        if (state.closed) return { errors: [new GraphQLError(SHUTTING_DOWN_MESSAGE, { extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } })] };
        if (isSubscriptionOperation(args.document, args.operationName)) throw new Error('unreachable');
        return executeThroughApollo(apollo, deps.hooks, { document: args.document, variables: args.variableValues as Record<string, unknown> | undefined, operationName: args.operationName }, args.contextValue as GatewayContext);
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
