// Reading and removing AI webhooks: one endpoint of the caller's app partition, its delivery log,
// and deactivation (no new deliveries; queued ones are still sent). Another
// app's (or environment's) endpoint id is NOT_FOUND, as an unknown one.
import { Arg, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root, Directive } from 'type-graphql';
import { deliveryView } from '../../../lib/webhooks/index.js';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { AiWebhook, aiEndpoints, toWebhook } from './ai-webhook.js';
import { WebhookAttemptFields, WebhookDeliveryFields } from '../../../lib/webhooks/delivery.type.js';

@ObjectType()
export class AiWebhookAttempt extends WebhookAttemptFields {}

@ObjectType()
export class AiWebhookDelivery extends WebhookDeliveryFields {
  @Field(() => [AiWebhookAttempt]) attemptLog!: AiWebhookAttempt[];
}

@Resolver(() => AiWebhook)
export class AiWebhookAdminResolver {
  @Query(() => AiWebhook, { description: 'One active AI webhook of the calling app' })
  async aiWebhook(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<AiWebhook> {
    await requireRegisteredUser(ctx, 'ai:read');
    return toWebhook(await aiEndpoints.get(ctx, id));
  }

  @Mutation(() => AiWebhook, { description: 'Stop an AI webhook: no new deliveries (queued ones are still sent)' })
  async deleteAiWebhook(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<AiWebhook> {
    await requireRegisteredUser(ctx, 'ai:write');
    return toWebhook(await aiEndpoints.deactivate(ctx, id));
  }

  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [AiWebhookDelivery], { description: 'Latest deliveries first, with every attempt' })
  async deliveries(@Root() hook: AiWebhook, @Ctx() ctx: AiContext, @Arg('limit', () => Int, { nullable: true }) limit?: number | null): Promise<AiWebhookDelivery[]> {
    await requireRegisteredUser(ctx, 'ai:read');
    return (await aiEndpoints.deliveries(ctx, hook.id, limit)).map(deliveryView);
  }
}
