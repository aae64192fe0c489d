// The position prior and redundancy removal of the TextRank summary (subgraphs/ai/models/
// summarize.ts); the quality figure is the bench's (npm run bench:ai-quality).
import { positionPrior, summarize } from '../../../subgraphs/ai/models/summarize.js';
import { loadWink } from '../../../subgraphs/ai/models/wink.js';

const wink = loadWink();

test('the prior falls with the position and spares a short hook nothing', () => {
  expect(positionPrior(0, 12)).toBe(1);
  expect(positionPrior(1, 12)).toBeCloseTo(1 / Math.SQRT2, 6);
  expect(positionPrior(0, 4)).toBeLessThan(positionPrior(1, 12));
});

test('a hook first: the lede after it is the summary', () => {
  const text =
    'It was the kind of night nobody forgets. ' +
    'The home side came back from three goals down to beat the league leaders 4-3 on Saturday, with the winner in added time. ' +
    'The coach praised his players. ' +
    'The crowd of 40,000 was the biggest at the stadium this season.';
  expect(summarize(wink, text, 200).summary).toContain('The home side came back from three goals down');
});

test('a sentence that repeats one already taken is left out', () => {
  const text =
    'The council voted to make buses free for residents under 18 from September. ' +
    'The council voted to make buses free for all residents under 18 from next September. ' +
    'The scheme will cost about 4 million euros a year.';
  const s = summarize(wink, text, 400).summary;
  expect(s.match(/The council voted/g)).toHaveLength(1);
  expect(s).toContain('4 million euros');
});
