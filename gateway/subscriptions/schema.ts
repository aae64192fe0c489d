// Extend the gateway's API schema with the Subscription root: `subscribe` reads the tenant's topic,
// the entity field resolves with a follow-up query through the gateway carrying the client's own
// selection set (fragments included).
import { GraphQLError, extendSchema, parse, print, Kind, type GraphQLSchema, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { DomainError, toGraphQLError } from '../../lib/errors.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { GatewayContext } from '../data-source.js';
import { SUBSCRIPTION_SDL, SUBSCRIPTIONS } from './registry.js';

export type RunQuery = (query: string, variables: Record<string, unknown>, ctx: GatewayContext) => Promise<{ data?: any; errors?: readonly unknown[] }>;

export function buildSubscriptionSchema(apiSchema: GraphQLSchema, pubsub: PubSub, run: RunQuery): GraphQLSchema {
  const schema = extendSchema(apiSchema, parse(SUBSCRIPTION_SDL));
  const root = schema.getSubscriptionType()!.getFields();
  for (const def of SUBSCRIPTIONS) {
    const field = root[def.field];
    field.subscribe = (_src, _args, ctx: GatewayContext) => {
      const t = ctx.tenant;
      if (t.kind === 'anonymous') throw toGraphQLError(new DomainError('UNAUTHENTICATED'));
      if (!t.scopes.includes(def.scope)) throw toGraphQLError(new DomainError('INSUFFICIENT_SCOPE', `Missing scope: ${def.scope}`));
      const topic = def.topic(t);
      if (!topic) throw toGraphQLError(new DomainError('UNAUTHENTICATED', 'An API key is required for this subscription'));
      return pubsub.subscribe(topic);
    };
    field.resolve = (payload) => payload;
    const eventType = schema.getType(def.eventType) as import('graphql').GraphQLObjectType;
    const link = def.link;
    eventType.getFields()[link.field].resolve = async (payload, _args, ctx: GatewayContext, info: GraphQLResolveInfo) => {
      const node = info.fieldNodes[0] as FieldNode;
      // an event without the linked entity (an AI event of another kind) links nothing
      if (!node.selectionSet || link.id(payload) == null) return null;
      const fragments = Object.values(info.fragments).map(print).join('\n');
      const query = `query SubscriptionFollowUp($id: ${link.idType}) { ${link.query}(${link.idArg}: $id) ${print(node.selectionSet)} }\n${fragments}`;
      const r = await run(query, { id: link.id(payload) }, ctx);
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

export function isSubscriptionOperation(doc: import('graphql').DocumentNode, operationName?: string | null): boolean {
  return doc.definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription' && (!operationName || d.name?.value === operationName),
  );
}
