// The delivery log's API shape (what deliveryView returns), written once for every subgraph that
// shows its endpoints' deliveries. Each subgraph keeps its own type names in the supergraph
// (AiWebhookDelivery, SearchWebhookDelivery) by extending these classes: type-graphql gives a
// subclass its parent's fields first, then its own (the attempt list, of its own attempt type).
// No field returns the parents themselves, so they are not in any schema.
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType()
export abstract class WebhookAttemptFields {
  @Field(() => Int) attempt!: number;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int) durationMs!: number;
  @Field() createdAt!: Date;
}

@ObjectType()
export abstract class WebhookDeliveryFields {
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
}
