// Antonym axes and negation on glove-sif-100d (lib/word-vectors.contrast.ts): opposites that share
// their frame move apart, one pole's synonyms stay together, negation takes the opposite move.
import { cosine } from '../../../lib/hashed-embeddings.js';
import { ANTONYM_POLES } from '../../../lib/word-vectors.antonyms.js';
import { ContrastAxes, type VectorTable } from '../../../lib/word-vectors.contrast.js';
import { sifEmbedding, wordVectors } from '../../../lib/word-vectors.js';

const sim = (a: string, b: string) => cosine(sifEmbedding(a).vector, sifEmbedding(b).vector);

test('opposites in one frame are less alike than the same thing said in other words', () => {
  // before the axes: 0.85 and 0.75 (GloVe puts hot and cold, clean and dirty, close together)
  expect(sim('The water is hot.', 'The water is cold.')).toBeLessThan(0.5);
  expect(sim('The room was clean.', 'The room was dirty.')).toBeLessThan(0.5);
  expect(sim('The room was clean.', 'The room was spotless.')).toBeGreaterThan(sim('The room was clean.', 'The room was dirty.') + 0.3);
});

test('synonyms of one pole stay together ("closes" / "shuts")', () => {
  expect(sim('Our shop closes at nine.', 'Our shop shuts at nine.')).toBeGreaterThan(0.85);
});

test('negation: "not open" comes nearer "closed" than "open"', () => {
  const notOpen = 'The museum is not open today.';
  expect(sim(notOpen, 'The museum is closed today.')).toBeGreaterThan(sim(notOpen, 'The museum is open today.') + 0.2);
  expect(sim('The food was not good.', 'The food was bad.')).toBeGreaterThan(sim('The food was not good.', 'The food was good.'));
  // the scope ends: a lexicon word four words after "not" keeps its own move
  const wv = wordVectors();
  expect(wv.words('not one of the open').length).toBe(5);
  expect(sim('not one of them is open', 'not one of them is closed')).toBeLessThan(0.9);
});

test('the step makes each row’s pole centroids orthogonal (counter-fitting’s margin), on a toy table', () => {
  const words = ['hot', 'cold', 'warm', 'pasta', 'not'];
  const rows = [
    [1, 0.2],
    [0.9, 0.3],
    [1, 0.25],
    [0, 1],
    [0, 0],
  ];
  const table: VectorTable = { dimensions: 2, indexOf: (w) => (words.includes(w) ? words.indexOf(w) : undefined), row: (i) => Float32Array.from(rows[i]) };
  const axes = new ContrastAxes(table, [[['hot', 'warm'], ['cold']]]);
  expect(axes.size).toBe(3);
  const moved = (ids: number[]) => {
    const v = new Float64Array(2);
    axes.accumulate(ids, Float32Array.from([1, 1, 1, 1, 1]), v);
    return [...v];
  };
  const hot = moved([0]);
  const warm = moved([2]);
  const cold = moved([1]);
  const centroidA = [(hot[0] + warm[0]) / 2, (hot[1] + warm[1]) / 2];
  expect(cosine(centroidA, cold)).toBeCloseTo(0, 3);
  expect(moved([3])).toEqual([0, 1]); // a word outside the lexicon is untouched
  expect(moved([0, 1])).toEqual([hot[0] + cold[0], hot[1] + cold[1]]);
  // "not hot": hot reflected through the poles' midpoint, among the cold side
  const notHot = moved([4, 0]);
  expect(cosine(notHot, cold)).toBeGreaterThan(0.9);
  expect(cosine(notHot, hot)).toBeLessThan(0.1);
});

test('the lexicon: two non-empty poles per row, lower-case single words', () => {
  for (const [a, b] of ANTONYM_POLES) {
    expect(a.length && b.length).toBeTruthy();
    for (const w of [...a, ...b]) expect(w).toMatch(/^[a-z]+$/);
  }
});
