// Translation (ai.md, Translation) with Apertium, for exactly the language pairs installed on the
// machine (models/apertium.ts), or, when the operator names a model (AI_TRANSLATION_LLM), through
// their chat-completions server (or the one the tenant chose, model-choices/) for any pair of languages it is asked for, with Apertium answering
// the installed pairs while that server fails (operator-models/chat-text.ts). Without
// source_language, the language identifier picks it.
import { Arg, Ctx, Directive, Field, Float, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { admitTextCall, AI_READ } from '../limits/limits.service.js';
import { iso1 } from '../models/apertium.js';
import { languageName } from '../models/language-names.js';
import { runModel } from '../text/text.service.js';
import { chosenServer } from '../model-choices/model-choice.service.js';
import type { ChatText } from '../operator-models/chat-text.js';

@InputType()
export class TranslateInput {
  @Field() text!: string;
  @Field(() => String, { nullable: true, description: 'ISO 639-1 code; detected when absent' }) sourceLanguage?: string | null;
  @Field({ description: 'ISO 639-1 code' }) targetLanguage!: string;
}

@ObjectType()
export class TranslationResult {
  @Field(() => ID) id!: string;
  @Field() translatedText!: string;
  @Field() sourceLanguage!: string;
  @Field() targetLanguage!: string;
  @Field(() => Float, { description: 'Apertium: share of the output words it knew; a chat model: the language identifier\'s probability that the output is in the target language' }) confidence!: number;
  @Field() model!: string;
}

@ObjectType()
export class TranslationLanguage {
  @Field(() => ID, { description: 'ISO 639-1 code (or 639-3 when the language has no 639-1 code)' }) id!: string;
  @Field() name!: string;
  @Field(() => [String], { description: 'Languages this one translates into' }) targets!: string[];
  @Field(() => [String], { description: 'Languages that translate into this one' }) sources!: string[];
}

export async function translate(ctx: AiContext, input: TranslateInput): Promise<TranslationResult> {
  await admitTextCall(ctx, [input.text], 'text');
  if (!input.text.trim()) throw new DomainError('VALIDATION_FAILED', 'text must not be empty', { parameter: 'text' });
  const engine = await ctx.runtime.translator;
  let operatorFailure: string | null = null;
  const chat = await chosenServer(ctx, 'translation');
  if (chat) {
    const byOperator = await translateByOperator(ctx, chat, input);
    if (!(byOperator instanceof Error)) return byOperator;
    operatorFailure = byOperator.message;
  }
  if (!engine.pairs.length) {
    const failed = operatorFailure ? `The translation model server failed (${operatorFailure}). ` : '';
    throw new DomainError('model_unavailable', `${failed}No translation pair is installed; an operator installs Apertium pairs, e.g. apt-get install apertium apertium-eng-spa (docs/ai.md, Translation)`);
  }
  const target = iso1(input.targetLanguage.toLowerCase());
  const source = input.sourceLanguage ? iso1(input.sourceLanguage.toLowerCase()) : (await runModel(ctx, 'language', { text: input.text, alternatives: 0 })).language;
  const available = engine.pairs.map((p) => `${p.source}-${p.target}`).join(', ');
  const pair = engine.find(source, target);
  if (!pair && operatorFailure) {
    throw new DomainError('model_unavailable', `The translation model server failed (${operatorFailure}) and no Apertium pair ${source}-${target} is installed to answer instead`);
  }
  if (!pair) {
    const parameter = engine.pairs.some((p) => p.source === source) ? 'targetLanguage' : 'sourceLanguage';
    throw new DomainError('invalid_language', `No installed translation pair ${source}-${target}; available pairs: ${available}`, { parameter, meta: { available: engine.pairs.map((p) => `${p.source}-${p.target}`) } });
  }
  try {
    const r = await engine.translate(pair, input.text);
    return { id: newId('trn'), translatedText: r.translated_text, sourceLanguage: source, targetLanguage: target, confidence: r.confidence, model: `${engine.version} ${pair.mode}` };
  } catch (e) {
    ctx.log.error('apertium failed', { err: e });
    throw new DomainError('model_unavailable', `The translation engine failed (${(e as Error).message})`);
  }
}

/** The operator's chat model's translation, or why its server failed (an Apertium pair may answer instead). */
async function translateByOperator(ctx: AiContext, chat: ChatText, input: TranslateInput): Promise<TranslationResult | Error> {
  const target = languageCode(input.targetLanguage, 'targetLanguage');
  const source = input.sourceLanguage ? languageCode(input.sourceLanguage, 'sourceLanguage') : (await runModel(ctx, 'language', { text: input.text, alternatives: 0 })).language;
  try {
    const a = await chat.translate(input.text, languageName(source), languageName(target));
    const heard = a.text ? await runModel(ctx, 'language', { text: a.text, alternatives: 5 }) : null;
    const confidence = !heard ? 0 : heard.language === target ? heard.confidence : (heard.alternatives.find((g) => g.language === target)?.confidence ?? 0);
    return { id: newId('trn'), translatedText: a.text, sourceLanguage: source, targetLanguage: target, confidence, model: a.model };
  } catch (e) {
    ctx.log.warn('translation model server failed; Apertium answers the installed pairs', { err: e });
    return e as Error;
  }
}

/** An ISO 639 code a language name is known for (the chat model is asked in names), lower-cased. */
function languageCode(code: string, parameter: string): string {
  const c = iso1(code.trim().toLowerCase());
  if (!/^[a-z]{2,3}$/.test(c) || languageName(c) === c) throw new DomainError('invalid_language', `"${code}" is not an ISO 639 language code`, { parameter });
  return c;
}

export async function translationLanguages(ctx: AiContext): Promise<TranslationLanguage[]> {
  await requireRegisteredUser(ctx, AI_READ);
  const engine = await ctx.runtime.translator;
  const codes = [...new Set(engine.pairs.flatMap((p) => [p.source, p.target]))].sort();
  return codes.map((code) => ({
    id: code,
    name: languageName(code),
    targets: engine.pairs.filter((p) => p.source === code).map((p) => p.target),
    sources: engine.pairs.filter((p) => p.target === code).map((p) => p.source),
  }));
}

@Resolver()
export class TranslationResolver {
  @Directive('@cost(weight: 20)')
  @Mutation(() => TranslationResult, { description: "Translate a text with an installed Apertium pair, or by the operator's chat model when AI_TRANSLATION_LLM names one" })
  translate(@Ctx() ctx: AiContext, @Arg('input', () => TranslateInput) input: TranslateInput): Promise<TranslationResult> {
    return translate(ctx, input);
  }

  @Query(() => [TranslationLanguage], { description: 'The languages of the installed translation pairs' })
  translationLanguages(@Ctx() ctx: AiContext): Promise<TranslationLanguage[]> {
    return translationLanguages(ctx);
  }
}
