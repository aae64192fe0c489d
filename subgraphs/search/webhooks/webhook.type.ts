import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { deliveryView, type DeliveryLogEntry, type WebhookEndpointEntity } from '../../../lib/webhooks/index.js';

@InputType()
export class RegisterWebhookInput {
  @Field({ description: 'http(s) URL of a public address' }) url!: string;
  @Field(() => [String], { description: 'indexing.completed, indexing.failed, index.created, index.deleted, settings.updated' }) events!: string[];
  @Field({ description: 'HMAC-SHA256 key of the X-Webhook-Signature (and X-Signature) header (any non-empty string up to 4096 characters; 32 random bytes recommended); never returned' }) secret!: string;
}

@ObjectType('SearchWebhook')
export class SearchWebhook {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() active!: boolean;
  @Field() createdAt!: Date;
}

@ObjectType('SearchWebhookAttempt')
export class SearchWebhookAttempt {
  @Field(() => Int) attempt!: number;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int) durationMs!: number;
  @Field() createdAt!: Date;
}

@ObjectType('SearchWebhookDelivery')
export class SearchWebhookDelivery {
  @Field(() => ID, { description: 'sent as X-Webhook-Id (receivers deduplicate on it)' }) id!: string;
  @Field() event!: string;
  @Field({ description: 'pending, delivering, delivered or failed (after the last retry)' }) status!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field() nextAttemptAt!: Date;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) deliveredAt!: Date | null;
  @Field({ description: 'the exact JSON body sent (and signed)' }) body!: string;
  @Field(() => [SearchWebhookAttempt]) attemptLog!: SearchWebhookAttempt[];
}

export function toWebhook(w: WebhookEndpointEntity): SearchWebhook {
  return { id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt };
}

export const toDelivery = (e: DeliveryLogEntry): SearchWebhookDelivery => deliveryView(e);
