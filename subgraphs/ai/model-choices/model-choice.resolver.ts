import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AiContext } from '../context.js';
import { ModelChoices, ModelChoicesInput } from './model-choice.types.js';
import * as choices from './model-choice.service.js';

// Access (key, scope, registered user) and the plan are checked by the service.
@Resolver(() => ModelChoices)
export class ModelChoiceResolver {
  @Query(() => ModelChoices, { description: "Which model answers each text task for this app: the app's choice, what answers now, and the operator's servers to choose from" })
  aiModelChoices(@Ctx() ctx: AiContext): Promise<ModelChoices> {
    return choices.getModelChoices(ctx);
  }

  @Mutation(() => ModelChoices, { description: 'Choose per text task "default", "builtin" or an operator server by name (scope ai:write; growth and enterprise plans)' })
  updateAiModelChoices(@Ctx() ctx: AiContext, @Arg('input', () => ModelChoicesInput) input: ModelChoicesInput): Promise<ModelChoices> {
    return choices.updateModelChoices(ctx, input);
  }
}
