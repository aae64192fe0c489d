import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType()
export class AgentContextInput {
  @Field(() => String, { nullable: true, description: 'a UUID (RFC 4122); a new one when absent; an existing one of the agent is replaced' }) uniqueId?: string | null;
  @Field() content!: string;
  @Field(() => String, { nullable: true, description: 'e.g. user_preference, conversation_history' }) type?: string | null;
  @Field(() => String, { nullable: true, description: 'a custom identifier (any string)' }) reference?: string | null;
  @Field(() => String, { nullable: true }) sourceId?: string | null;
  @Field(() => String, { nullable: true }) sourceAlias?: string | null;
}

@ObjectType()
export class AgentContext {
  @Field(() => ID) id!: string;
  @Field() agentId!: string;
  @Field() uniqueId!: string;
  @Field() content!: string;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => String, { nullable: true }) sourceId?: string | null;
  @Field(() => String, { nullable: true }) sourceAlias?: string | null;
  @Field(() => Float, { nullable: true, description: 'cosine similarity to the query, when listed with one' }) score?: number | null;
  @Field() createdAt!: Date;
}

@InputType()
export class AgentContextFilter {
  @Field(() => String, { nullable: true, description: 'only entries with this reference' }) reference?: string | null;
  @Field(() => String, { nullable: true, description: 'only entries of this type' }) type?: string | null;
  @Field(() => String, { nullable: true, description: 'rank by similarity to this text (best first, with score)' }) query?: string | null;
  @Field(() => Int, { nullable: true, description: '1 to 100 (default 20)' }) limit?: number | null;
}
