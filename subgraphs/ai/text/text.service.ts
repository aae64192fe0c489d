// Text analysis (ai.md): every call is admitted against the plan (limits.service.ts) and answered
// by the named method of the text models, which run in worker threads (models/text-model-pool.ts).
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { admitTextCall } from '../limits/limits.service.js';
import { ENTITY_TYPES, type EntityType } from '../models/entities.js';
import { round } from '../models/sentiment.js';
import { defaultSummaryLength } from '../models/summarize.js';
import { chosenServer } from '../model-choices/model-choice.service.js';
import type { TextOp, TextOps } from '../models/text-models.js';
import type { EntitiesInput, KeyPhrasesInput, LanguageInput, SentimentInput, SummarizeInput } from './text.inputs.js';

/** The method behind each answer, as docs/ai.md names it. */
export const TEXT_MODELS = {
  sentiment: 'vader-sentiment-1.1.3+review-rules',
  entities: 'compromise-14.17.0+wink-nlp-2.4.0+lists',
  keyPhrases: 'wink-nlp-2.4.0-noun-phrases',
  language: 'fasttext-lid.176+eld-2.1.0+script-rules',
  summarize: 'textrank-extractive',
} as const;

/** The English-only methods: a language hint must name English. */
const ENGLISH = ['en'];
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

export async function analyseSentiment(ctx: AiContext, input: SentimentInput) {
  await admitText(ctx, input.text, input.language);
  const r = await runModel(ctx, 'sentiment', { text: input.text });
  return { id: newId('sen'), ...r, model: TEXT_MODELS.sentiment };
}

export async function extractEntities(ctx: AiContext, input: EntitiesInput) {
  const types = (input.types ?? []).map((t) => t.toUpperCase());
  const unknown = types.filter((t) => !(ENTITY_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw new DomainError('VALIDATION_FAILED', `types: unknown entity type ${unknown.join(', ')}; known: ${ENTITY_TYPES.join(', ')}`, { parameter: 'types' });
  await admitText(ctx, input.text, input.language);
  const wantsProducts = !types.length || types.includes('PRODUCT');
  const productNames = wantsProducts ? await ctx.runtime.productNames.names(ctx.tenant) : [];
  const entities = await runModel(ctx, 'entities', { text: input.text, types: types as EntityType[], productNames });
  return { id: newId('ent'), entities, model: TEXT_MODELS.entities };
}

export async function extractKeyPhrases(ctx: AiContext, input: KeyPhrasesInput) {
  const max = input.maxPhrases ?? 10;
  if (!Number.isInteger(max) || max < 1 || max > 50) throw new DomainError('VALIDATION_FAILED', 'max_phrases must be an integer from 1 to 50', { parameter: 'maxPhrases' });
  await admitText(ctx, input.text, input.language);
  const keyPhrases = await runModel(ctx, 'keyPhrases', { text: input.text, max });
  return { id: newId('kph'), keyPhrases, model: TEXT_MODELS.keyPhrases };
}

export async function detectLanguage(ctx: AiContext, input: LanguageInput) {
  await admitText(ctx, input.text, null);
  const r = await runModel(ctx, 'language', { text: input.text, alternatives: 3 });
  return {
    id: newId('lng'),
    language: r.language,
    languageName: r.language_name,
    confidence: r.confidence,
    alternatives: r.alternatives.map((a) => ({ language: a.language, languageName: a.language_name, confidence: a.confidence })),
    model: TEXT_MODELS.language,
  };
}

export async function summarizeText(ctx: AiContext, input: SummarizeInput) {
  const style = input.style ?? 'extractive';
  if (style !== 'extractive') throw new DomainError('VALIDATION_FAILED', `style "${style}" does not exist; the only style is extractive`, { parameter: 'style' });
  const maxLength = input.maxLength ?? defaultSummaryLength(input.text);
  if (!Number.isInteger(maxLength) || maxLength < 20) throw new DomainError('VALIDATION_FAILED', 'max_length must be an integer of at least 20 (characters)', { parameter: 'maxLength' });
  await admitText(ctx, input.text, input.language);
  const r = await summaryByOperator(ctx, input.text, maxLength) ?? { ...(await runModel(ctx, 'summarize', { text: input.text, maxLength })), model: TEXT_MODELS.summarize };
  return { id: newId('sum'), summary: r.summary, length: r.length, compressionRatio: r.compression_ratio, model: r.model };
}

/** The chat model chosen for the tenant (or the operator's default) when there is one and it answers; null: TextRank answers. */
async function summaryByOperator(ctx: AiContext, text: string, maxLength: number) {
  const chat = await chosenServer(ctx, 'summaries');
  if (!chat) return null;
  try {
    const a = await chat.summarize(text, maxLength);
    return { summary: a.text, length: a.text.length, compression_ratio: round(a.text.length / text.length), model: a.model };
  } catch (e) {
    ctx.log.warn('summary model server failed; TextRank answers', { err: e });
    return null;
  }
}

/** Registered caller, plan limits, a non-empty text and (when given) an English language hint. */
export async function admitText(ctx: AiContext, text: string, language: string | null | undefined, parameter = 'text'): Promise<void> {
  await admitTextCall(ctx, [text], parameter);
  if (!text.trim()) throw new DomainError('VALIDATION_FAILED', `${parameter} must not be empty`, { parameter });
  if (language !== undefined && language !== null) checkLanguageHint(language, ENGLISH);
}

export function checkLanguageHint(language: string, supported: readonly string[], parameter = 'language'): void {
  const base = language.split(/[-_]/)[0].toLowerCase();
  if (!LANGUAGE_CODE.test(language) || !supported.includes(base)) {
    throw new DomainError('invalid_language', `language "${language}" is not supported by this method; supported: ${supported.join(', ')}`, { parameter });
  }
}

/** A model call; a model that failed to load answers model_unavailable. */
export async function runModel<O extends TextOp>(ctx: AiContext, op: O, args: TextOps[O]['args']): Promise<TextOps[O]['result']> {
  try {
    return await ctx.runtime.text.run(op, args);
  } catch (e) {
    ctx.log.error('text model call failed', { op, err: e });
    throw new DomainError('model_unavailable', `The text models are not available (${(e as Error).message}); see /health/detailed and docs/ai.md, Operations`);
  }
}
