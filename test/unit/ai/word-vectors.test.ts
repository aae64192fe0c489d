// The glove-sif-100d embedding (lib/word-vectors.ts): the installed file, SIF weighting, the
// common-component removal, compounds, and meaning over shared words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cosine } from '../../../lib/hashed-embeddings.js';
import { KEPT_WORDS, sifEmbedding, WORD_VECTOR_DIMENSIONS, wordVectors, WordVectors } from '../../../lib/word-vectors.js';

const sim = (a: string, b: string) => cosine(sifEmbedding(a).vector, sifEmbedding(b).vector);

test('the installed model: 100k words × 100 float32, a unit common component, frequent words first', () => {
  const wv = wordVectors();
  expect(wv.header.words).toHaveLength(KEPT_WORDS);
  expect(wv.dimensions).toBe(WORD_VECTOR_DIMENSIONS);
  expect(wv.header.words.slice(0, 3)).toEqual(['the', 'of', 'to']);
  expect(Math.hypot(...wv.header.component)).toBeCloseTo(1, 5);
  // encode → read round trip keeps header and vectors
  const h = { ...wv.header, words: wv.header.words.slice(0, 2000) };
  const data = new Float32Array(h.words.length * h.dimensions);
  h.words.forEach((w, i) => data.set(wv.vectorOf(w)!, i * h.dimensions));
  const file = join(mkdtempSync(join(tmpdir(), 'wv-')), 'small.bin');
  writeFileSync(file, WordVectors.encode(h, data));
  const back = WordVectors.read(file);
  expect(back.embed('a red car').vector).toEqual(new WordVectors(h, data).embed('a red car').vector);
  rmSync(dirname(file), { recursive: true });
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
  expect(wv.words("don't").map((i) => wv.header.words[i])).toEqual(['do', 'not']);
  expect(wv.words("it's").map((i) => wv.header.words[i])).toEqual(['it']);
  expect(wv.words('webserver').map((i) => wv.header.words[i])).toEqual(['web', 'server']);
});

test('meaning without shared words beats shared words without meaning', () => {
  expect(sim('is wireless internet free at the hotel?', 'Wi-Fi is included in every room at no extra cost')).toBeGreaterThan(sim('is wireless internet free at the hotel?', 'The museum opens at ten'));
  expect(sim('The physician examined the patient.', 'A doctor checked the sick person.')).toBeGreaterThan(0.6);
  expect(sim('The cat sat on the mat.', 'Quarterly revenue exceeded forecasts.')).toBeLessThan(0.2);
});
