// What the moderation classifier reads (models/moderation.features.ts): group names masked, one
// marker token per spam cue; and the context that spares texts about spam (models/moderation.ts).
import { classifierInput, SPAM_CUES } from '../../../subgraphs/ai/models/moderation.features.js';
import { TextModerator } from '../../../subgraphs/ai/models/moderation.js';
import { wordVectors } from '../../../lib/word-vectors.js';

const cues = (text: string) => classifierInput(text).split('\n')[1]?.split(' ') ?? [];

test.each([
  ['Visit www.example-deals.biz today', ['qqurl']],
  ['Only $9.99, 50% off', ['qqmny', 'qqpct']],
  ['Click here to claim, call 555-013-7788', ['qqcta', 'qqphn']],
  ['FREE MONEY for everyone!!!', ['qqcap', 'qqexc']],
  ['Big savings 🔥', ['qqemo']],
  ['The meeting moved to Friday.', []],
] as const)('%s → %j', (text, want) => {
  expect(cues(text)).toEqual(want);
});

test('group names are masked as "people"; the markers are no word the word vectors know', () => {
  expect(classifierInput('Refugees should leave')).toBe('people should leave');
  const wv = wordVectors();
  for (const c of SPAM_CUES) expect(wv.words(c.token)).toEqual([]);
});

test('a text about spam is not spam; the spam itself is', async () => {
  const m = await TextModerator.load();
  expect(m.moderate('Beware of emails promising free money, they are phishing.').categories.spam.flagged).toBe(false);
  expect(m.moderate('Claim your FREE money now!!! Click here: www.free-cash.biz').categories.spam.flagged).toBe(true);
}, 120_000);
