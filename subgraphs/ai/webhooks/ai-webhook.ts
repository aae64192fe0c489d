// AI webhooks (ai.md, Webhooks): endpoints of the caller's app partition on the kernel's outbox and
// signed delivery (lib/webhooks: URL guard, sealed secret, X-Webhook-Signature, retries, log).
// Bodies: { event, occurred_at, data }, queued in the transaction of what they announce.
import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { appEndpoints, ownerOfApp, type OutboxTx, type WebhookEndpointEntity } from '../../../lib/webhooks/index.js';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import type { AiRuntime } from '../runtime.js';

export const AI_WEBHOOK_EVENTS = ['moderation.flagged', 'classifier.trained', 'batch.completed'] as const;
export type AiWebhookEvent = (typeof AI_WEBHOOK_EVENTS)[number];

/** The endpoints of the caller's app partition (an id in errors: `webhookId`, the default; REST's `webhook_id`). */
export const aiEndpoints = appEndpoints({ events: AI_WEBHOOK_EVENTS, urlError: 'VALIDATION_FAILED', notFound: 'NOT_FOUND', maxEndpoints: 20 });

@InputType()
export class AiWebhookInput {
  @Field({ description: 'http(s) URL of a public address' }) url!: string;
  @Field(() => [String], { description: 'moderation.flagged, classifier.trained, batch.completed' }) events!: string[];
  @Field({ description: 'HMAC-SHA256 key of the X-Webhook-Signature header (any non-empty string up to 4096 characters; 32 random bytes recommended); never returned' }) secret!: string;
}

@ObjectType()
export class AiWebhook {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() active!: boolean;
  @Field() createdAt!: Date;
}

export const toWebhook = (w: WebhookEndpointEntity): AiWebhook => ({ id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt });

export async function registerAiWebhook(ctx: AiContext, input: AiWebhookInput): Promise<AiWebhook> {
  await requireRegisteredUser(ctx, 'ai:write');
  const rt = ctx.runtime;
  return toWebhook(await aiEndpoints.register(ctx, { secrets: rt.webhookSecrets, allowPrivate: rt.allowPrivateNetwork }, input));
}

/** Queue `event` for the app's endpoints subscribed to it, in the transaction `tx` belongs to. */
export function emitAiEvent(rt: AiRuntime, tx: OutboxTx, t: { appId: string; environment: string }, event: AiWebhookEvent, data: Record<string, unknown>): Promise<number> {
  return rt.webhooks.emit(tx, { owner: ownerOfApp(t.appId, t.environment), event, payload: { event, occurred_at: new Date().toISOString(), data } });
}

@Resolver(() => AiWebhook)
export class AiWebhookResolver {
  @Mutation(() => AiWebhook, { description: 'Register a webhook for AI events (deliveries signed with X-Webhook-Signature, see docs/kernel.md)' })
  registerAiWebhook(@Ctx() ctx: AiContext, @Arg('input', () => AiWebhookInput) input: AiWebhookInput): Promise<AiWebhook> {
    return registerAiWebhook(ctx, input);
  }

  @Query(() => [AiWebhook], { description: 'Active AI webhooks of the calling app' })
  async aiWebhooks(@Ctx() ctx: AiContext): Promise<AiWebhook[]> {
    await requireRegisteredUser(ctx, 'ai:read');
    return (await aiEndpoints.list(ctx)).map(toWebhook);
  }
}
