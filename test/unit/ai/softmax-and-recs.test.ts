// Pure parts of the custom classifiers (softmax regression) and the recommender (pair updates,
// decay, scoring).
import { heldOutSplit, predict, train } from '../../../subgraphs/ai/models/softmax.model.js';
import { decayed, HALF_LIFE_MS, pairDeltas, scoreNeighbours, eventWeight, matchesFilters } from '../../../subgraphs/ai/recommendations/recommendation.rules.js';

test('softmax regression: probabilities sum to 1, training is deterministic, the split is stratified', async () => {
  const ex = [
    ...['cheap flights to rome', 'book a hotel in paris', 'train tickets to berlin', 'rent a car in madrid', 'flights and hotels in lisbon'].map((text) => ({ text, label: 'travel' })),
    ...['best pasta recipe', 'how to bake bread', 'easy soup for dinner', 'chocolate cake recipe', 'grilled fish with lemon'].map((text) => ({ text, label: 'food' })),
  ];
  const m1 = await train(ex, ['travel', 'food']);
  const m2 = await train(ex, ['travel', 'food']);
  expect(m1).toEqual(m2);
  const p = predict(m1, 'a recipe for lemon cake');
  expect(p[0].label).toBe('food');
  expect(p.reduce((s, x) => s + x.confidence, 0)).toBeCloseTo(1, 10);
  expect(predict(m1, 'hotel in rome')[0].label).toBe('travel');
  const split = heldOutSplit(ex);
  expect(split.test.map((e) => e.label).sort()).toEqual(['food', 'travel']);
  expect(split.train).toHaveLength(8);
});

test('pairDeltas equals recomputing the dot products from scratch', () => {
  const before = new Map([['a', 2], ['b', 1]]);
  const after = new Map([['a', 3], ['b', 1], ['c', 4]]);
  const got = new Map<string, number>();
  pairDeltas(before, after, new Set(['a', 'c']), (i, j, d) => got.set(`${i}${j}`, (got.get(`${i}${j}`) ?? 0) + d));
  const dot = (m: Map<string, number>, i: string, j: string) => (m.get(i) ?? 0) * (m.get(j) ?? 0);
  for (const [i, j] of [['a', 'b'], ['a', 'c'], ['b', 'c']]) expect(got.get(`${i}${j}`) ?? 0).toBeCloseTo(dot(after, i, j) - dot(before, i, j));
});

test('decay halves per half-life; weights; neighbour scoring with reasons; filters', () => {
  const t = new Date('2026-06-01T00:00:00Z');
  expect(decayed(1, new Date(t.getTime() - HALF_LIFE_MS)) / decayed(1, t)).toBeCloseTo(0.5);
  expect([eventWeight('view'), eventWeight('purchase'), eventWeight('rating', 5), eventWeight('rating', 2)]).toEqual([1, 5, 3, 0]);
  const s = scoreNeighbours(
    [{ itemId: 'tent', weight: 0.75 }, { itemId: 'stove', weight: 0.25 }],
    [
      { itemId: 'tent', neighborId: 'lantern', score: 0.8 },
      { itemId: 'stove', neighborId: 'lantern', score: 0.4 },
      { itemId: 'stove', neighborId: 'pot', score: 0.9 },
      { itemId: 'tent', neighborId: 'stove', score: 0.5 },
    ],
    new Set(['stove']),
  );
  expect(s).toEqual([
    { itemId: 'lantern', score: 0.75 * 0.8 + 0.25 * 0.4, because: 'tent' },
    { itemId: 'pot', score: 0.25 * 0.9, because: 'stove' },
  ]);
  expect(matchesFilters({ category: 'camping', price: 20 }, { category: ['camping', 'hiking'] })).toBe(true);
  expect(matchesFilters({ category: 'camping' }, { category: 'kitchen' })).toBe(false);
});
