// The GraphQL shapes of model choices (GET/PATCH /ai/v1/model-choices through the bridge).
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType()
export class ModelChoice {
  @Field({ description: 'embeddings, moderation, summaries or translation' }) task!: string;
  @Field({ description: '"default" (the operator\'s default), "builtin" (the in-process method) or the name of an operator server' }) choice!: string;
  @Field({ description: 'What answers the task now: "builtin", or the server\'s model as the answers\' `model` names it' }) model!: string;
  @Field(() => [String], { description: 'The names of the servers the operator configured for the task' }) servers!: string[];
}

@ObjectType()
export class ModelChoices {
  @Field(() => ID, { description: 'The app id' }) id!: string;
  @Field({ description: "The tenant's plan" }) plan!: string;
  @Field({ description: 'Whether the plan allows choosing (growth and enterprise)' }) choosable!: boolean;
  @Field(() => [ModelChoice]) choices!: ModelChoice[];
}

@InputType({ description: 'Per task: "default", "builtin" or an operator server\'s name; an absent task is left as it is' })
export class ModelChoicesInput {
  @Field(() => String, { nullable: true }) embeddings?: string | null;
  @Field(() => String, { nullable: true }) moderation?: string | null;
  @Field(() => String, { nullable: true }) summaries?: string | null;
  @Field(() => String, { nullable: true }) translation?: string | null;
}
