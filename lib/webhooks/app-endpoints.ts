// The webhook endpoints of the caller's app partition, the owner the catalog's, the search service's
// and the AI service's webhooks share: each operation of endpoints.ts and log.ts with that partition
// as the owner, under one service's rules (its events and error codes).
import type { EntityManager } from '@mikro-orm/postgresql';
import { appPartition } from '../tenant-entity.js';
import { deactivateEndpoint, getEndpoint, listEndpoints, registerEndpoint, type EndpointDeps, type EndpointInput, type EndpointRules } from './endpoints.js';
import { endpointLogLimit, listDeliveries, type DeliveryLogEntry } from './log.js';
import { ownerOfApp, type WebhookEndpointEntity } from './webhook.entities.js';

interface PartitionContext {
  em: EntityManager;
}

export interface AppEndpoints {
  register(ctx: PartitionContext, deps: Omit<EndpointDeps, 'em'>, input: EndpointInput): Promise<WebhookEndpointEntity>;
  list(ctx: PartitionContext): Promise<WebhookEndpointEntity[]>;
  get(ctx: PartitionContext, id: unknown): Promise<WebhookEndpointEntity>;
  /** no new deliveries; queued ones are still sent; the delivery log stays readable */
  deactivate(ctx: PartitionContext, id: unknown): Promise<WebhookEndpointEntity>;
  /** latest first, each with every attempt; limit 1 to 100 (default 20) */
  deliveries(ctx: PartitionContext, endpointId: string, limit?: number | null): Promise<DeliveryLogEntry[]>;
}

/** The owner key of the caller's app partition (the key's app and environment). */
async function appOwner(ctx: PartitionContext): Promise<string> {
  const { appId, environment } = await appPartition(ctx);
  return ownerOfApp(appId, environment);
}

export function appEndpoints(rules: EndpointRules): AppEndpoints {
  return {
    register: async (ctx, deps, input) => registerEndpoint({ em: ctx.em, ...deps }, await appOwner(ctx), input, rules),
    list: async (ctx) => listEndpoints(ctx.em, await appOwner(ctx)),
    get: async (ctx, id) => getEndpoint(ctx.em, await appOwner(ctx), id, rules),
    deactivate: async (ctx, id) => deactivateEndpoint(ctx.em, await appOwner(ctx), id, rules),
    deliveries: async (ctx, endpointId, limit) => listDeliveries(ctx.em, { owner: await appOwner(ctx), endpointId, limit: endpointLogLimit(limit) }),
  };
}
