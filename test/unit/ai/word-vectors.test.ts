// The glove-sif-100d embedding (lib/word-vectors.ts): the installed file, SIF weighting, the
// common-component removal, compounds, and meaning over shared words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cosine } from '../../../lib/hashed-embeddings.js';
import { Worker } from 'node:worker_threads';
import { KEPT_WORDS, sifEmbedding, WORD_VECTOR_DIMENSIONS, wordVectors, WordVectors, withSharedWordVectors } from '../../../lib/word-vectors.js';
import { Vocabulary } from '../../../lib/word-vocabulary.js';

const sim = (a: string, b: string) => cosine(sifEmbedding(a).vector, sifEmbedding(b).vector);

test('the installed model: 100k words × 100 float32, a unit common component, frequent words first', () => {
  const wv = wordVectors();
  expect(wv.size).toBe(KEPT_WORDS);
  expect(wv.dimensions).toBe(WORD_VECTOR_DIMENSIONS);
  expect([0, 1, 2].map((i) => wv.word(i))).toEqual(['the', 'of', 'to']);
  expect(Math.hypot(...wv.meta.component)).toBeCloseTo(1, 5);
  // encode → read round trip keeps header and vectors
  const h = { ...wv.meta, words: Array.from({ length: 2000 }, (_, i) => wv.word(i)) };
  const data = new Float32Array(h.words.length * h.dimensions);
  h.words.forEach((w, i) => data.set(wv.vectorOf(w)!, i * h.dimensions));
  const file = join(mkdtempSync(join(tmpdir(), 'wv-')), 'small.bin');
  writeFileSync(file, WordVectors.encode(h, data));
  const back = WordVectors.read(file);
  expect(back.embed('a red car').vector).toEqual(WordVectors.of(h, data).embed('a red car').vector);
  rmSync(dirname(file), { recursive: true });
});

test('the vocabulary: every word found at its own index, unknown words not; all in shared memory', () => {
  const wv = wordVectors();
  for (let i = 0; i < wv.size; i += 7) if (wv.words(wv.word(i))[0] !== i && /^[\p{L}\p{N}]+$/u.test(wv.word(i))) throw new Error(`word ${i} "${wv.word(i)}" not found at ${i}`);
  const v = Vocabulary.build(['b', 'a', 'b', 'ü', '']);
  expect(['a', 'b', 'ü', '', 'c', 'ab'].map((w) => v.indexOf(w))).toEqual([1, 0, 3, 4, -1, -1]);
  expect(v.word(3)).toBe('ü');
  const { shared } = wv;
  for (const a of [shared.data, shared.vocabulary.chars, shared.vocabulary.offsets, shared.vocabulary.slots]) expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
});

test('a worker thread handed the model (withSharedWordVectors) reads the same memory, not a copy', async () => {
  const small = WordVectors.of({ ...wordVectors().meta, words: ['red', 'car'] }, new Float32Array(200).fill(0.5));
  // the worker writes into the vectors it was handed; the parent sees the write: one copy, shared
  const code = `const { workerData, parentPort } = require('node:worker_threads');
    const d = workerData.sharedWordVectors.data; d[0] = 7; parentPort.postMessage(d.buffer instanceof SharedArrayBuffer);`;
  const worker = new Worker(code, { eval: true, workerData: { other: 1, sharedWordVectors: small.shared } });
  const shared = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  expect(shared).toBe(true);
  expect(small.vectorOf('red')![0]).toBe(7);
  // the helper hands this process's installed model
  expect(withSharedWordVectors({ dbUrl: 'x' }).sharedWordVectors?.data).toBe(wordVectors().shared.data);
});

test('a unit vector per text, known words counted; no known word → zeros', () => {
  const e = sifEmbedding('Reset my password, please');
  expect(e.vector).toHaveLength(100);
  expect(Math.hypot(...e.vector)).toBeCloseTo(1, 6);
  expect(e.tokens).toBe(4);
  expect(sifEmbedding('zzqx vvbnm')).toEqual({ vector: new Array(100).fill(0), tokens: 0 });
});

test('SIF weighting: a frequent word weighs less than a rare one', () => {
  const wv = wordVectors();
  const [the] = wv.words('the');
  const [kitten] = wv.words('kitten');
  expect(the).toBeLessThan(kitten);
  // "the" adds almost nothing to a text's direction
  expect(cosine(sifEmbedding('kitten').vector, sifEmbedding('the kitten').vector)).toBeGreaterThan(0.95);
});

test('contractions and unknown compounds are read as GloVe read them', () => {
  const wv = wordVectors();
  expect(wv.words("don't").map((i) => wv.word(i))).toEqual(['do', 'not']);
  expect(wv.words("it's").map((i) => wv.word(i))).toEqual(['it']);
  expect(wv.words('webserver').map((i) => wv.word(i))).toEqual(['web', 'server']);
});

test('meaning without shared words beats shared words without meaning', () => {
  expect(sim('is wireless internet free at the hotel?', 'Wi-Fi is included in every room at no extra cost')).toBeGreaterThan(sim('is wireless internet free at the hotel?', 'The museum opens at ten'));
  expect(sim('The physician examined the patient.', 'A doctor checked the sick person.')).toBeGreaterThan(0.6);
  expect(sim('The cat sat on the mat.', 'Quarterly revenue exceeded forecasts.')).toBeLessThan(0.2);
});
