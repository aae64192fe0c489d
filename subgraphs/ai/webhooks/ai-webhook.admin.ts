// Reading and removing AI webhooks: one endpoint of the caller's app partition, its delivery log,
// and deactivation (no new deliveries; queued ones are still sent). Another
// app's (or environment's) endpoint id is NOT_FOUND, as an unknown one.
import { Arg, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root, Directive } from 'type-graphql';
import { appPartition } from '../../../lib/tenant-entity.js';
import { deactivateEndpoint, deliveryView, endpointLogLimit, getEndpoint, listDeliveries, ownerOfApp, type EndpointRules } from '../../../lib/webhooks/index.js';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { AiWebhook } from './ai-webhook.js';
import { WebhookAttemptFields, WebhookDeliveryFields } from '../../../lib/webhooks/delivery.type.js';

const RULES: Pick<EndpointRules, 'notFound' | 'idParameter'> = { notFound: 'NOT_FOUND', idParameter: 'webhook_id' };

@ObjectType()
export class AiWebhookAttempt extends WebhookAttemptFields {}

@ObjectType()
export class AiWebhookDelivery extends WebhookDeliveryFields {
  @Field(() => [AiWebhookAttempt]) attemptLog!: AiWebhookAttempt[];
}

async function owner(ctx: AiContext, scope: 'ai:read' | 'ai:write'): Promise<string> {
  await requireRegisteredUser(ctx, scope);
  const { appId, environment } = await appPartition(ctx);
  return ownerOfApp(appId, environment);
}

const view = (w: { id: string; url: string; events: string[]; active: boolean; createdAt: Date }): AiWebhook => ({ id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt });

@Resolver(() => AiWebhook)
export class AiWebhookAdminResolver {
  @Query(() => AiWebhook, { description: 'One active AI webhook of the calling app' })
  async aiWebhook(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<AiWebhook> {
    return view(await getEndpoint(ctx.em, await owner(ctx, 'ai:read'), id, RULES));
  }

  @Mutation(() => AiWebhook, { description: 'Stop an AI webhook: no new deliveries (queued ones are still sent)' })
  async deleteAiWebhook(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<AiWebhook> {
    return view(await deactivateEndpoint(ctx.em, await owner(ctx, 'ai:write'), id, RULES));
  }

  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [AiWebhookDelivery], { description: 'Latest deliveries first, with every attempt' })
  async deliveries(@Root() hook: AiWebhook, @Ctx() ctx: AiContext, @Arg('limit', () => Int, { nullable: true }) limit?: number | null): Promise<AiWebhookDelivery[]> {
    return (await listDeliveries(ctx.em, { owner: await owner(ctx, 'ai:read'), endpointId: hook.id, limit: endpointLogLimit(limit) })).map(deliveryView);
  }
}
