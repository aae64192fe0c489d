// The custom classifiers' model: multinomial logistic regression (softmax regression) over sparse
// text features, trained by mini-batch gradient descent with L2 regularisation. Pure: no I/O.
//
// Features: lower-cased word unigrams and bigrams (Unicode letters and digits), log(1 + tf),
// L2-normalised per text. The vocabulary is the features of the training texts. A model trained
// with `embedding: 'glove-sif-100d'` (the default since issue 31) also reads the text's 100
// SIF word-vector dimensions (lib/word-vectors.ts) as dense features after the vocabulary, so
// words never seen in training still count by their meaning; a model without the field (trained
// before) reads words only, as it was trained. Training is
// deterministic: examples are shuffled by a seeded generator, so the same examples give the same model.
//
// Why our own and not natural's LogisticRegressionClassifier (shared/notes/ai-models.md): natural
// trains one binary model per label (one-vs-rest) and normalises their outputs afterwards, and its
// import loads dotenv and prints to stdout; a softmax gives calibrated per-label probabilities that
// sum to 1 directly, in ~100 lines.
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../../../lib/seeded-random.js';
import { sifEmbedding, WORD_VECTORS_MODEL, wordVectorsInstalled } from '../../../lib/word-vectors.js';

/** This file, whose source is part of the key of models derived with it (models/moderation.classifier.ts). */
export const SOFTMAX_SOURCE = fileURLToPath(import.meta.url);

export interface SoftmaxModel {
  kind: 'softmax-regression';
  labels: string[];
  vocabulary: string[];
  /** weights[label][feature], then the bias per label */
  weights: number[][];
  bias: number[];
  /** dense features of this embedding model follow the vocabulary (absent: words only) */
  embedding?: typeof WORD_VECTORS_MODEL;
}

export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  l2?: number;
  seed?: number;
  /** dense word-vector features; default glove-sif-100d when its model is installed, null for words only */
  embedding?: typeof WORD_VECTORS_MODEL | null;
}

type Sparse = Map<number, number>;

export function tokens(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

function features(text: string): string[] {
  const w = tokens(text);
  const out = [...w];
  for (let i = 0; i + 1 < w.length; i++) out.push(`${w[i]} ${w[i + 1]}`);
  return out;
}

function vectorise(text: string, index: Map<string, number>, embedding?: string): Sparse {
  const tf = new Map<number, number>();
  for (const f of features(text)) {
    const i = index.get(f);
    if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  let norm = 0;
  for (const [i, c] of tf) {
    const v = Math.log1p(c);
    tf.set(i, v);
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [i, v] of tf) tf.set(i, v / norm);
  if (embedding === WORD_VECTORS_MODEL) {
    const { vector } = sifEmbedding(text);
    vector.forEach((v, d) => v && tf.set(index.size + d, v));
  }
  return tf;
}

function denseDims(embedding?: string): number {
  return embedding === WORD_VECTORS_MODEL ? 100 : 0;
}

function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

function scores(m: SoftmaxModel, x: Sparse): number[] {
  return m.labels.map((_, k) => {
    let s = m.bias[k];
    const w = m.weights[k];
    for (const [i, v] of x) s += w[i] * v;
    return s;
  });
}

/** Trains the model; yields to the event loop every 256 examples so a long training does not hold the process. */
export async function train(examples: readonly { text: string; label: string }[], labels: readonly string[], o: TrainOptions = {}): Promise<SoftmaxModel> {
  const epochs = o.epochs ?? 60;
  const lr0 = o.learningRate ?? 1.0;
  const l2 = o.l2 ?? 1e-4;
  const vocab = [...new Set(examples.flatMap((e) => features(e.text)))].sort();
  const index = new Map(vocab.map((f, i) => [f, i]));
  const embedding = o.embedding === undefined ? (wordVectorsInstalled() ? WORD_VECTORS_MODEL : undefined) : (o.embedding ?? undefined);
  const width = vocab.length + denseDims(embedding);
  const model: SoftmaxModel = { kind: 'softmax-regression', labels: [...labels], vocabulary: vocab, weights: labels.map(() => new Array(width).fill(0)), bias: labels.map(() => 0), ...(embedding ? { embedding } : {}) };
  const data = examples.map((e) => ({ x: vectorise(e.text, index, embedding), y: labels.indexOf(e.label) }));
  const rand = mulberry32(o.seed ?? 42);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    await new Promise((r) => setImmediate(r));
    const lr = lr0 / (1 + epoch * 0.1);
    for (const [step, n] of order.entries()) {
      if (step % 256 === 255) await new Promise((r) => setImmediate(r));
      const { x, y } = data[n];
      const p = softmax(scores(model, x));
      for (let k = 0; k < labels.length; k++) {
        const g = p[k] - (k === y ? 1 : 0);
        const w = model.weights[k];
        for (const [i, v] of x) w[i] -= lr * (g * v + l2 * w[i]);
        model.bias[k] -= lr * g;
      }
    }
  }
  // compact storage: 6 significant digits
  model.weights = model.weights.map((w) => w.map((v) => Number(v.toPrecision(6))));
  model.bias = model.bias.map((v) => Number(v.toPrecision(6)));
  return model;
}

/** Per-label probabilities, best first. */
export function predict(model: SoftmaxModel, text: string, index = indexOf(model)): { label: string; confidence: number }[] {
  const p = softmax(scores(model, vectorise(text, index, model.embedding)));
  return model.labels.map((label, k) => ({ label, confidence: p[k] })).sort((a, b) => b.confidence - a.confidence || a.label.localeCompare(b.label));
}

export function indexOf(model: SoftmaxModel): Map<string, number> {
  return new Map(model.vocabulary.map((f, i) => [f, i]));
}

/**
 * Deterministic stratified split: per label, examples ordered by a hash of their text, every fifth
 * held out (labels with fewer than 5 examples stay whole in training).
 */
export function heldOutSplit<T extends { text: string; label: string }>(examples: readonly T[]): { train: T[]; test: T[] } {
  const byLabel = new Map<string, T[]>();
  for (const e of examples) byLabel.set(e.label, [...(byLabel.get(e.label) ?? []), e]);
  const train: T[] = [];
  const test: T[] = [];
  for (const group of byLabel.values()) {
    const sorted = [...group].sort((a, b) => fnv(a.text) - fnv(b.text) || a.text.localeCompare(b.text));
    sorted.forEach((e, i) => (group.length >= 5 && i % 5 === 4 ? test : train).push(e));
  }
  return { train, test };
}

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
