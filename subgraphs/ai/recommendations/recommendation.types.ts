import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class RecommendationEventInput {
  @Field() userId!: string;
  @Field({ description: 'view, click, add_to_cart, purchase, rating, like' }) eventType!: string;
  @Field() itemId!: string;
  @Field(() => Date, { nullable: true, description: 'ISO 8601; now when absent; at most 5 minutes ahead' }) timestamp?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'rating: metadata.rating 1–5 (required); scalar fields become item attributes for filters' }) metadata?: Record<string, unknown> | null;
}

@ObjectType()
export class RecommendationEventAck {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field() eventType!: string;
  @Field() itemId!: string;
  @Field() timestamp!: Date;
  @Field(() => Float, { description: 'the weight the event adds (before time decay)' }) weight!: number;
  @Field({ description: 'queued: the model includes it after the next refresh (seconds)' }) status!: string;
}

@InputType()
export class RecommendationInput {
  @Field(() => String, { nullable: true, description: 'recommend for this user\'s history' }) userId?: string | null;
  @Field(() => String, { nullable: true, description: 'items like this one' }) itemId?: string | null;
  @Field(() => String, { nullable: true, description: 'the current session\'s item ids (e.g. a cart), comma-separated' }) context?: string | null;
  @Field(() => Int, { nullable: true, description: '1 to 100 (default 10)' }) limit?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'exclude_item_ids (list), include_seen (boolean), and item attributes: a value or a list of allowed values' }) filters?: Record<string, unknown> | null;
}

@ObjectType()
export class Recommendation {
  @Field() itemId!: string;
  @Field(() => Float) score!: number;
  @Field() reason!: string;
}

@ObjectType()
export class RecommendationResult {
  @Field(() => ID) id!: string;
  @Field(() => [Recommendation]) recommendations!: Recommendation[];
  @Field({ description: 'item-item-v<version>: the model refresh the answer came from' }) modelVersion!: string;
  @Field() model!: string;
}
