// Extend the gateway's API schema with the Subscription root: `subscribe` reads the tenant's topic,
// the entity field resolves with a follow-up query through the gateway carrying the client's own
// selection set (fragments and variables included), shared by the subscribers of one event
// (follow-up.ts). The same schema answers introspection (introspection.ts), so the Subscription root
// is visible to GraphiQL, codegen and schema downloads.
// Every event carries its id in the tenant's stream (lib/event-stream.ts): a subscription resumes
// after `stream.resumeFrom`, and each result's event id is left in `stream.lastEventId` for the
// transport (graphql-ws: `extensions.eventId`; SSE: the event's `id:`).
import { GraphQLError, extendSchema, parse, Kind, type GraphQLSchema, type GraphQLResolveInfo } from 'graphql';
import { DomainError, toGraphQLError } from '../../lib/errors.js';
import type { PubSub } from '../../lib/pubsub.js';
import { isGone, type StreamItem } from '../../lib/event-stream.js';
import type { GatewayContext } from '../data-source.js';
import type { SubscriptionRegistry } from './registry.js';
import { buildFollowUp, callerKey, FollowUpShare } from './follow-up.js';

export type RunQuery = (query: string, variables: Record<string, unknown>, ctx: GatewayContext) => Promise<{ data?: any; errors?: readonly unknown[] }>;

export type FollowUpResult = Awaited<ReturnType<RunQuery>>;

/** A subscription operation's place in its tenant's stream: where it resumes, the id of the event last resolved. */
export interface StreamCursor {
  resumeFrom?: string;
  lastEventId?: string;
}

/** The context of one subscription operation (the transports make one per operation). */
export type SubscriptionContext = GatewayContext & { stream?: StreamCursor };

/** The answer in place of the missed events when the resume point left the retention window: refetch, the stream goes on live. */
export function resumeGoneError(after: string): GraphQLError {
  return toGraphQLError(
    new DomainError('RESUME_POINT_GONE', `Events after ${after} are no longer retained; refetch the current state (the subscription continues with live events)`, {
      meta: { resumeFrom: after },
    }),
  );
}

/** `subscriptions`: the contract's Subscription root (registry.ts), read by the gateway at start. */
export function buildSubscriptionSchema(
  apiSchema: GraphQLSchema,
  subscriptions: SubscriptionRegistry,
  pubsub: PubSub,
  run: RunQuery,
  share = new FollowUpShare<FollowUpResult>(),
): GraphQLSchema {
  const schema = extendSchema(apiSchema, parse(subscriptions.sdl));
  const root = schema.getSubscriptionType()!.getFields();
  for (const def of subscriptions.defs) {
    const field = root[def.field];
    field.subscribe = (_src, args: Record<string, unknown>, ctx: SubscriptionContext) => {
      const t = ctx.tenant;
      if (t.kind === 'anonymous') throw toGraphQLError(new DomainError('UNAUTHENTICATED'));
      if (!t.scopes.includes(def.scope)) throw toGraphQLError(new DomainError('INSUFFICIENT_SCOPE', `Missing scope: ${def.scope}`));
      const topic = def.topic(t);
      if (!topic) throw toGraphQLError(new DomainError('UNAUTHENTICATED', 'An API key is required for this subscription'));
      const events = pubsub.subscribeFrom(topic, ctx.stream?.resumeFrom);
      const keep = def.filter;
      return keep ? filtered(events, (item) => isGone(item as StreamItem) || keep((item as { payload: unknown }).payload, args)) : events;
    };
    field.resolve = (item: StreamItem, _args, ctx: SubscriptionContext) => {
      if (isGone(item)) throw resumeGoneError(item.after);
      if (ctx.stream) ctx.stream.lastEventId = item.id;
      return item.payload;
    };
    const eventType = schema.getType(def.eventType) as import('graphql').GraphQLObjectType;
    const link = def.link;
    eventType.getFields()[link.field].resolve = async (payload, _args, ctx: GatewayContext, info: GraphQLResolveInfo) => {
      // an event without the linked entity (an AI event of another kind) links nothing
      const id = link.id(payload);
      if (id == null) return null;
      const f = buildFollowUp(info, link, id);
      if (!f) return null;
      const r = await share.get(payload, callerKey(ctx.tenant), f, () => run(f.query, f.variables, ctx));
      if (r.errors?.length) {
        const notFound = r.errors.some((e: any) => typeof e?.extensions?.code === 'string' && e.extensions.status === 404);
        if (notFound) return null;
        throw new GraphQLError('Failed to resolve subscription entity', { extensions: { code: 'INTERNAL', status: 500 } });
      }
      return r.data?.[link.query] ?? null;
    };
  }
  return schema;
}

/** The events of `it` that `keep` accepts; closing it closes the topic's iterator. */
function filtered(it: AsyncIterator<unknown>, keep: (payload: unknown) => boolean): AsyncIterableIterator<unknown> {
  return {
    async next() {
      for (;;) {
        const r = await it.next();
        if (r.done || keep(r.value)) return r;
      }
    },
    return: () => (it.return ? it.return() : Promise.resolve({ done: true as const, value: undefined })),
    throw: (e: unknown) => (it.throw ? it.throw(e) : Promise.reject(e)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export function isSubscriptionOperation(doc: import('graphql').DocumentNode, operationName?: string | null): boolean {
  return doc.definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription' && (!operationName || d.name?.value === operationName),
  );
}
