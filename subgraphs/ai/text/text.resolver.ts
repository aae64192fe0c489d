import { Arg, Ctx, Mutation, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { EntitiesInput, KeyPhrasesInput, LanguageInput, SentimentInput, SummarizeInput } from './text.inputs.js';
import { EntitiesResult, KeyPhrasesResult, LanguageResult, SentimentResult, SummarizeResult } from './text.types.js';
import * as text from './text.service.js';

// Mutations: every call counts against the plan's requests per minute. Access (key, ai:read,
// registered user) is checked by the services (limits.service.ts), in the order ai.md implies.
@Resolver()
export class TextAnalysisResolver {
  @Directive('@cost(weight: 20)')
  @Mutation(() => SentimentResult, { description: 'Sentiment of an English text (VADER)' })
  textSentiment(@Ctx() ctx: AiContext, @Arg('input', () => SentimentInput) input: SentimentInput): Promise<SentimentResult> {
    return text.analyseSentiment(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => EntitiesResult, { description: 'Named entities with character offsets' })
  textEntities(@Ctx() ctx: AiContext, @Arg('input', () => EntitiesInput) input: EntitiesInput): Promise<EntitiesResult> {
    return text.extractEntities(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => KeyPhrasesResult, { description: 'Key noun phrases with scores (the best scores 1)' })
  textKeyPhrases(@Ctx() ctx: AiContext, @Arg('input', () => KeyPhrasesInput) input: KeyPhrasesInput): Promise<KeyPhrasesResult> {
    return text.extractKeyPhrases(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => LanguageResult, { description: 'Language of a text among 176 (fastText lid.176 with ELD and script rules)' })
  textLanguage(@Ctx() ctx: AiContext, @Arg('input', () => LanguageInput) input: LanguageInput): Promise<LanguageResult> {
    return text.detectLanguage(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => SummarizeResult, { description: "Summary: extractive (TextRank), or by the operator's chat model when AI_SUMMARY_LLM names one" })
  textSummarize(@Ctx() ctx: AiContext, @Arg('input', () => SummarizeInput) input: SummarizeInput): Promise<SummarizeResult> {
    return text.summarizeText(ctx, input);
  }
}
