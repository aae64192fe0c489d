import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

@InputType()
export class BatchInput {
  @Field({ description: 'sentiment, entities, key_phrases, language, summarize or moderation' }) operation!: string;
  @Field(() => [String], { description: '1 to 1,000 texts; each within the plan\'s characters per request' }) inputs!: string[];
  @Field(() => [String], { nullable: true, description: 'entities: types to return' }) types?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'key_phrases: 1 to 50' }) maxPhrases?: number | null;
  @Field(() => Int, { nullable: true, description: 'summarize: characters' }) maxLength?: number | null;
  @Field(() => [String], { nullable: true, description: 'moderation: categories' }) categories?: string[] | null;
  @Field(() => String, { nullable: true, description: 'language hint (en) for the English-only operations' }) language?: string | null;
}

@ObjectType()
export class AiBatch {
  @Field(() => ID) id!: string;
  @Field() operation!: string;
  @Field({ description: 'queued, processing, completed, failed' }) status!: string;
  @Field(() => Int) total!: number;
  @Field(() => Int) processed!: number;
  @Field(() => GraphQLJSON, { nullable: true, description: 'One result per input, in input order, each the shape of the single endpoint\'s attributes (snake_case); set when completed' })
  results?: unknown[] | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
}
