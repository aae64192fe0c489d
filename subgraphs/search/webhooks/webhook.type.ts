import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { deliveryView, type DeliveryLogEntry, type WebhookEndpointEntity } from '../../../lib/webhooks/index.js';
import { WebhookAttemptFields, WebhookDeliveryFields } from '../../../lib/webhooks/delivery.type.js';

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
export class SearchWebhookAttempt extends WebhookAttemptFields {}

@ObjectType('SearchWebhookDelivery')
export class SearchWebhookDelivery extends WebhookDeliveryFields {
  @Field(() => [SearchWebhookAttempt]) attemptLog!: SearchWebhookAttempt[];
}

export function toWebhook(w: WebhookEndpointEntity): SearchWebhook {
  return { id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt };
}

export const toDelivery = (e: DeliveryLogEntry): SearchWebhookDelivery => deliveryView(e);
