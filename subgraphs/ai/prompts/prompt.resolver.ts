import { Arg, Ctx, ID, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { CreatePromptInput, Prompt, PromptExecution, RenderedPrompt, RenderPromptInput } from './prompt.types.js';
import * as prompts from './prompt.service.js';

// Access (key, scope, registered user) and the plan's request rate are checked by the service.
@Resolver(() => Prompt)
export class PromptResolver {
  @Query(() => [Prompt], { description: 'The 10 library templates, then the app\'s custom prompts' })
  prompts(@Ctx() ctx: AiContext): Promise<Prompt[]> {
    return prompts.listPrompts(ctx);
  }

  @Mutation(() => Prompt, { description: 'Create a custom prompt, from scratch or cloned from a library template (scope ai:write)' })
  createPrompt(@Ctx() ctx: AiContext, @Arg('input', () => CreatePromptInput) input: CreatePromptInput): Promise<Prompt> {
    return prompts.createPrompt(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => RenderedPrompt, { description: 'Render a prompt with placeholder values' })
  renderPrompt(@Ctx() ctx: AiContext, @Arg('uniqueId', () => ID) uniqueId: string, @Arg('input', () => RenderPromptInput) input: RenderPromptInput): Promise<RenderedPrompt> {
    return prompts.renderPrompt(ctx, uniqueId, input);
  }

  @Directive('@cost(weight: 50)')
  @Mutation(() => PromptExecution, { description: 'Render a prompt and run it on the configured language model (503 model_unavailable when none is)' })
  executePrompt(@Ctx() ctx: AiContext, @Arg('uniqueId', () => ID) uniqueId: string, @Arg('input', () => RenderPromptInput) input: RenderPromptInput): Promise<PromptExecution> {
    return prompts.executePrompt(ctx, uniqueId, input);
  }
}
