// The rules on top of VADER (subgraphs/ai/models/sentiment.ts): negation idioms, contrast, review
// words and the neutral band. The quality figure is the bench's (npm run bench:ai-quality).
import { sentiment } from '../../../subgraphs/ai/models/sentiment.js';

test.each([
  ['Not bad at all for the price.', 'positive'],
  ['No complaints, it does what it says.', 'positive'],
  ['I have never had a problem with it.', 'positive'],
  ['No problems at all, highly recommended.', 'positive'],
  ['Not worth the money.', 'negative'],
  ['Not impressed with the picture quality.', 'negative'],
  ["Don't waste your time with this app.", 'negative'],
])('negation idioms: %s → %s', (text, label) => {
  expect(sentiment(text).label).toBe(label);
});

test('"but" shifts the weight to the clause after it, both ways', () => {
  expect(sentiment('The screen is lovely, but the battery is terrible.').label).toBe('negative');
  expect(sentiment('Setup was a bit annoying, but it works great now.').label).toBe('positive');
});

test('review words VADER lacks count, and flip after a negation', () => {
  expect(sentiment('The refund process is a nightmare.').label).toBe('negative');
  expect(sentiment('The sound is crisp.').label).toBe('positive');
  expect(sentiment('The sound is not crisp.').label).toBe('negative');
});

test('requests and facts stay neutral; politeness is not sentiment', () => {
  expect(sentiment('Please add me to the mailing list.').label).toBe('neutral');
  expect(sentiment('I would like to know if you ship to Canada.').label).toBe('neutral');
  expect(sentiment('The package arrived on Tuesday.')).toMatchObject({ label: 'neutral', score: 0, confidence: 1 });
});

test('scores stay VADER proportions that sum to 1; the score stays in -1..1', () => {
  const r = sentiment('GREAT!!! best purchase ever, love love love it');
  expect(r.scores.positive + r.scores.neutral + r.scores.negative).toBeCloseTo(1, 2);
  expect(r.score).toBeLessThanOrEqual(1);
  expect(r.score).toBeGreaterThan(0.9);
});
