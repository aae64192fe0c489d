// Moderation by intent (models/moderation.ts): threats, self-harm, harassment and hate are found by
// who + verb + harm and by the trained classifier; reporting, technical and clinical text is spared;
// the two extra categories are folded into document 2's four.
import { ALL_MODERATION_CATEGORIES, MODERATION_CATEGORIES, TextModerator } from '../../../subgraphs/ai/models/moderation.js';

let m: TextModerator;
// training takes seconds alone and far longer on the shared, loaded machine
beforeAll(async () => {
  m = await TextModerator.load();
}, 180_000);

test.each([
  ["I'm going to find you after work and break your legs.", 'violence'],
  ["What's the most painless way to end my life?", 'self_harm'],
  ['You are a worthless, pathetic loser and everyone knows it.', 'harassment'],
  ['Refugees are vermin and should be deported.', 'hate'],
  ['CONGRATULATIONS!!! You have won a free iPhone, click here now', 'spam'],
] as const)('%s → %s', (text, category) => {
  const r = m.moderate(text, ALL_MODERATION_CATEGORIES);
  expect(r.categories[category].flagged).toBe(true);
  expect(r.flagged).toBe(true);
});

test.each([
  "Kill the process with kill -9 if it doesn't respond.",
  'Police said the suspect stabbed two people before he was arrested.',
  'The penis and testicles are part of the male reproductive system.',
  'If you are having thoughts of suicide, please call a crisis line; you are not alone.',
  'My character killed the dragon and got the legendary sword.',
  'Thanks for the recipe, the soup was lovely.',
])('spared: %s', (text) => {
  expect(m.moderate(text, ALL_MODERATION_CATEGORIES)).toMatchObject({ flagged: false, action: 'allow' });
});

test('self_harm and harassment answer when asked for; violence and hate hold them in the four', () => {
  const selfHarm = m.moderate('I want to kill myself tonight.');
  expect(Object.keys(selfHarm.categories)).toEqual([...MODERATION_CATEGORIES]);
  expect(selfHarm.categories.violence.flagged).toBe(true);
  const both = m.moderate('I want to kill myself tonight.', ['violence', 'self_harm']);
  expect(both.categories.self_harm.score).toBe(both.categories.violence.score);
  const insult = m.moderate('Shut up, you pathetic idiot.', ['hate', 'harassment']);
  expect(insult.categories.harassment.flagged).toBe(true);
  expect(insult.categories.hate.score).toBeGreaterThanOrEqual(insult.categories.harassment.score);
});

test('a quoted threat is not the writer\'s; the same threat said is', () => {
  const said = m.signals('I will kill you.');
  const quoted = m.signals("How do I report a message that says 'I will kill you'?");
  expect(said.rules.violence).toBeGreaterThan(0.8);
  expect(quoted.rules.violence).toBeLessThan(0.5);
});
