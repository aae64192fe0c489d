// Embeddings and similarity: the built-in models, run in the text workers and shared with search's hybrid mode —
// glove-sif-100d (the default: SIF-weighted GloVe word vectors, lib/word-vectors.ts) and hashed-ngrams-384
// (lexical, lib/hashed-embeddings.ts) — or an operator's ONNX sentence-transformer from AI_MODELS_DIR
// (models/onnx-embeddings.ts).
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { admitTextCall } from '../limits/limits.service.js';
import { cosine, HASHED_DIMENSIONS, HASHED_MODEL } from '../../../lib/hashed-embeddings.js';
import { round } from '../models/sentiment.js';
import { runModel } from '../text/text.service.js';
import { WORD_VECTOR_DIMENSIONS, WORD_VECTORS_MODEL } from '../../../lib/word-vectors.js';
import type { EmbeddingModel, EmbeddingsInput, SimilarityInput } from './embedding.types.js';
import { chosenServer } from '../model-choices/model-choice.service.js';
import type { EmbeddingServer } from '../operator-models/model-servers.js';

export const MAX_INPUTS = 64;
/** The model of a call that names none. */
export const DEFAULT_EMBEDDING_MODEL = WORD_VECTORS_MODEL;

interface Embedded {
  model: string;
  vectors: number[][];
  tokens: number;
}

export async function createEmbeddings(ctx: AiContext, input: EmbeddingsInput) {
  checkTexts(input.inputs, 'inputs');
  await admitTextCall(ctx, input.inputs, 'inputs');
  const r = await embed(ctx, input.inputs, input.model);
  return {
    id: newId('emb'),
    embeddings: r.vectors.map((v, index) => ({ index, embedding: v.map((x) => round(x, 6)), dimensions: v.length })),
    model: r.model,
    usage: { tokens: r.tokens },
  };
}

export async function similarity(ctx: AiContext, input: SimilarityInput) {
  if (!input.source.trim()) throw new DomainError('VALIDATION_FAILED', 'source must not be empty', { parameter: 'source' });
  checkTexts(input.targets, 'targets');
  await admitTextCall(ctx, [input.source, ...input.targets], 'targets');
  const r = await embed(ctx, [input.source, ...input.targets], input.model);
  const [source, ...targets] = r.vectors;
  return { id: newId('sim'), similarities: targets.map((t, index) => ({ index, score: round(cosine(source, t)) })), model: r.model, usage: { tokens: r.tokens } };
}

export function listEmbeddingModels(ctx: AiContext): EmbeddingModel[] {
  const onnx = ctx.runtime.onnx.names().map((name) => ({ name, kind: 'onnx', dimensions: null }));
  const servers = [...new Set(embeddingServers(ctx).map((s) => s.name))].map((name) => ({ name, kind: 'server', dimensions: null }));
  return [
    ...servers, { name: WORD_VECTORS_MODEL, kind: 'builtin', dimensions: WORD_VECTOR_DIMENSIONS }, { name: HASHED_MODEL, kind: 'builtin', dimensions: HASHED_DIMENSIONS }, ...onnx];
}

/** The operator's default embedding server and the ones tenants may choose (AI_MODEL_SERVERS). */
function embeddingServers(ctx: AiContext): EmbeddingServer[] {
  const { defaults, named } = ctx.runtime.registry;
  return [...(defaults.embeddings ? [defaults.embeddings] : []), ...named.embeddings.values()];
}

/** Vectors of `texts` (L2-normalised) with the named model; when absent the server the tenant chose or the
 *  operator's (AI_EMBEDDINGS_URL) if there is one, else glove-sif-100d (model-choices/); also used by agent context. */
export async function embed(ctx: AiContext, texts: string[], model: string | null | undefined): Promise<Embedded> {
  const server = model ? embeddingServers(ctx).find((s) => s.name === model) : await chosenServer(ctx, 'embeddings');
  const name = model ?? server?.name ?? DEFAULT_EMBEDDING_MODEL;
  if (server) {
    try {
      const r = await server.embed(texts);
      return { model: name, vectors: r.vectors, tokens: r.tokens };
    } catch (e) {
      // never another model's vectors in its place: they would not compare with the server's
      ctx.log.error('embedding server failed', { model: name, err: e });
      throw new DomainError('model_unavailable', `the embedding server (${name}) did not answer: ${(e as Error).message}`);
    }
  }
  if (name === WORD_VECTORS_MODEL) {
    const r = await runModel(ctx, 'sifEmbed', { texts });
    return { model: name, vectors: r.map((e) => e.vector), tokens: r.reduce((s, e) => s + e.tokens, 0) };
  }
  if (name === HASHED_MODEL) {
    const r = await runModel(ctx, 'hashedEmbed', { texts });
    return { model: name, vectors: r.map((e) => e.vector), tokens: r.reduce((s, e) => s + e.tokens, 0) };
  }
  const onnx = ctx.runtime.onnx;
  if (!onnx.has(name)) {
    const known = listEmbeddingModels(ctx).map((m) => m.name);
    throw new DomainError('VALIDATION_FAILED', `model "${name}" is not installed; installed: ${known.join(', ')}. An operator adds one to the models directory (docs/ai.md, Adding an embedding model)`, { parameter: 'model' });
  }
  try {
    const m = await onnx.get(name);
    const r = await m.embed(texts);
    return { model: name, vectors: r.vectors, tokens: r.tokens };
  } catch (e) {
    // the cause names files of the operator's machine: logged for the operator, never answered
    ctx.log.error('onnx embedding failed', { model: name, root: onnx.root, err: e });
    throw new DomainError('model_unavailable', `model "${name}" could not be loaded or run; the operator's log has the cause (docs/ai.md, Adding an embedding model)`);
  }
}

function checkTexts(texts: string[], parameter: string): void {
  if (!texts.length || texts.length > MAX_INPUTS) throw new DomainError('VALIDATION_FAILED', `${parameter} must hold 1 to ${MAX_INPUTS} texts`, { parameter });
  const empty = texts.findIndex((t) => !t.trim());
  if (empty >= 0) throw new DomainError('VALIDATION_FAILED', `${parameter}[${empty}] must not be empty`, { parameter });
}
