import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType({ description: 'A prompt of the tenant: one of the 10 library templates or a custom prompt' })
export class Prompt {
  @Field(() => ID, { description: 'the prompt\'s UUID' }) id!: string;
  @Field() uniqueId!: string;
  @Field() name!: string;
  @Field() content!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ description: 'library (preloaded in every tenant) or custom' }) source!: string;
  @Field(() => String, { nullable: true, description: 'library: universal, reasoning or specialized' }) tier?: string | null;
  @Field(() => String, { nullable: true, description: 'custom: the library template it was cloned from' }) templateUniqueId?: string | null;
  @Field(() => [String], { description: 'root names of the placeholders in content' }) placeholders!: string[];
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field(() => Date, { nullable: true }) createdAt?: Date | null;
}

@InputType()
export class CreatePromptInput {
  @Field({ description: '1 to 200 characters' }) name!: string;
  @Field(() => String, { nullable: true, description: 'the template text with {{placeholders}}; the cloned template\'s content when absent' }) content?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: 'clone a library template (its unique_id)' }) templateUniqueId?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}

@InputType()
export class AgentContextSource {
  @Field({ description: 'the agent whose stored context is ranked against query' }) agentId!: string;
  @Field({ description: 'what to rank the agent\'s context by' }) query!: string;
  @Field(() => Int, { nullable: true, description: '1 to 20 passages (default 5)' }) limit?: number | null;
  @Field(() => String, { nullable: true, description: 'the placeholder that receives the passages (default context)' }) placeholder?: string | null;
}

@InputType()
export class RenderPromptInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'values: strings, numbers, arrays, nested objects, arrays of objects' }) placeholders?: Record<string, unknown> | null;
  @Field(() => AgentContextSource, { nullable: true, description: 'fill a placeholder with an agent\'s context ranked for a query (RAG)' }) agentContext?: AgentContextSource | null;
}

@ObjectType()
export class RenderedPrompt {
  @Field(() => Int, { description: 'an integer' }) id!: number;
  @Field() promptUniqueId!: string;
  @Field() renderedContent!: string;
  @Field(() => [String]) placeholdersUsed!: string[];
}

@ObjectType()
export class PromptExecution {
  @Field(() => ID) id!: string;
  @Field() promptUniqueId!: string;
  @Field() renderedContent!: string;
  @Field() response!: string;
  @Field() model!: string;
  @Field(() => Int) tokensUsed!: number;
  @Field(() => Int) executionTimeMs!: number;
}
