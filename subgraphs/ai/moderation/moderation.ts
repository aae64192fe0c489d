// Text moderation (ai.md, Moderation): intent rules, lexicons and the product's own classifier (models/moderation.ts,
// docs/ai.md). `self_harm` and `harassment` answer when asked for; violence and hate include them.
// A flagged text is announced as `moderation.flagged` to the app's webhooks and aiEvents subscription.
import { Arg, Ctx, Directive, Field, Float, ID, InputType, Mutation, ObjectType, Resolver } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { ALL_MODERATION_CATEGORIES, MODERATION_CATEGORIES, verdict, type ModerationCategory, type ModerationResult as TextModerationResult } from '../models/moderation.js';
import { admitText, runModel } from '../text/text.service.js';
import { announceFlagged } from './moderation.events.js';
import { chosenServer } from '../model-choices/model-choice.service.js';

export const MODERATION_MODEL = 'intent-rules+obscenity-0.4.6+softmax-glove-sif-100d';

@InputType()
export class ModerationInput {
  @Field() text!: string;
  @Field(() => [String], { nullable: true, description: 'hate, violence, sexual, spam (these four when absent), self_harm, harassment' }) categories?: string[] | null;
}

@ObjectType()
export class ModerationCategoryResult {
  @Field() flagged!: boolean;
  @Field(() => Float) score!: number;
}

@ObjectType()
export class ModerationCategories {
  @Field(() => ModerationCategoryResult, { nullable: true }) hate?: ModerationCategoryResult;
  @Field(() => ModerationCategoryResult, { nullable: true }) violence?: ModerationCategoryResult;
  @Field(() => ModerationCategoryResult, { nullable: true }) sexual?: ModerationCategoryResult;
  @Field(() => ModerationCategoryResult, { nullable: true }) spam?: ModerationCategoryResult;
  @Field(() => ModerationCategoryResult, { nullable: true, description: 'Harm aimed at oneself (also counted in violence); only when asked for' }) selfHarm?: ModerationCategoryResult;
  @Field(() => ModerationCategoryResult, { nullable: true, description: 'Insults aimed at the reader (also counted in hate); only when asked for' }) harassment?: ModerationCategoryResult;
}

@ObjectType()
export class ModerationResult {
  @Field(() => ID) id!: string;
  @Field() flagged!: boolean;
  @Field(() => ModerationCategories, { description: 'The requested categories only' }) categories!: ModerationCategories;
  @Field({ description: 'allow (every score < 0.5), review (a score >= 0.5), block (a score >= 0.8)' }) action!: string;
  @Field() model!: string;
}

export async function moderateText(ctx: AiContext, input: ModerationInput): Promise<ModerationResult> {
  const categories = [...new Set((input.categories ?? []).map((c) => c.toLowerCase()))];
  const unknown = categories.filter((c) => !(ALL_MODERATION_CATEGORIES as readonly string[]).includes(c));
  if (unknown.length) throw new DomainError('VALIDATION_FAILED', `categories: unknown ${unknown.join(', ')}; known: ${ALL_MODERATION_CATEGORIES.join(', ')}`, { parameter: 'categories' });
  await admitText(ctx, input.text, null);
  const asked = (categories.length ? categories : [...MODERATION_CATEGORIES]) as ModerationCategory[];
  const { r, model } = await moderate(ctx, input.text, asked);
  const result = { id: newId('mod'), ...r, categories: graphqlNames(r.categories), model };
  if (r.flagged) await announceFlagged(ctx, { id: result.id, content: 'text', action: r.action, categories: r.categories, model });
  return result;
}

/**
 * The moderation server chosen for the tenant, else the operator's (AI_MODERATION_URL), when there is one, for the categories it has,
 * with our own spam score beside it; our method alone when there is none or it fails (the answer's
 * `model` says which).
 */
async function moderate(ctx: AiContext, text: string, asked: ModerationCategory[]): Promise<{ r: TextModerationResult; model: string }> {
  const server = await chosenServer(ctx, 'moderation');
  if (server) {
    try {
      const [remote, local] = await Promise.all([server.scores(text), asked.includes('spam') ? runModel(ctx, 'moderate', { text, categories: ['spam'] }) : null]);
      const scores: Partial<Record<ModerationCategory, number>> = { ...remote, spam: local?.categories.spam?.score ?? 0 };
      scores.violence = Math.max(scores.violence ?? 0, scores.self_harm ?? 0);
      scores.hate = Math.max(scores.hate ?? 0, scores.harassment ?? 0);
      return { r: verdict(asked, scores), model: `${server.name}+${MODERATION_MODEL}(spam)` };
    } catch (e) {
      ctx.log.warn('moderation server failed; answering with the built-in method', { model: server.name, err: e });
    }
  }
  return { r: await runModel(ctx, 'moderate', { text, categories: asked }), model: MODERATION_MODEL };
}

/** self_harm is the spec's (REST) spelling; GraphQL's field is selfHarm (the bridge turns it back). */
function graphqlNames(c: Record<string, { flagged: boolean; score: number }>): ModerationCategories {
  const { self_harm: selfHarm, ...rest } = c;
  return selfHarm ? { ...rest, selfHarm } : rest;
}

@Resolver()
export class ModerationResolver {
  @Directive('@cost(weight: 20)')
  @Mutation(() => ModerationResult, { description: 'Moderate a text for hate, violence, sexual content and spam' })
  moderateText(@Ctx() ctx: AiContext, @Arg('input', () => ModerationInput) input: ModerationInput): Promise<ModerationResult> {
    return moderateText(ctx, input);
  }
}
