// What the moderation classifier reads (moderation.ts trains and asks it through this one function,
// so training and prediction never differ). Pure.
//  1. Group names masked as "people" (identity-term masking): the classifier learns what is said
//     about a group, not which groups appear in the hateful examples.
//  2. Spam cues the words alone miss, appended as marker tokens the softmax weighs like words (one
//     per cue present): a link, a money amount, a percentage, a call to action, a phone number,
//     shouting (two or more words in capitals), repeated punctuation ("!!!", "?!"), emoji. Each is
//     common in spam and in legitimate commerce alike; together and beside the words they separate
//     the two (the training set holds both, moderation-train.json).
// Change MODERATION_FEATURES_VERSION whenever this function's output changes: a cached trained
// classifier must be retrained then.
import { GROUP_NAME } from './moderation.intent.js';

export const MODERATION_FEATURES_VERSION = 2;

/** Marker tokens: five letters that no English word or GloVe compound split produces. */
export const SPAM_CUES: ReadonlyArray<{ token: string; re: RegExp }> = [
  { token: 'qqurl', re: /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|biz|info|xyz|io|ly|co|ru|top|click|link|shop|site|online)\b|\bbit\.ly\b|\btinyurl\b/iu },
  { token: 'qqmny', re: /[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k\s)?(?:dollars|usd|eur|euros|pounds|gbp|bucks|btc|bitcoin)\b/iu },
  { token: 'qqpct', re: /\b\d+(?:\.\d+)?\s?%/u },
  {
    token: 'qqcta',
    re: /\b(?:click|tap) (?:here|now|the link|below)|\b(?:buy|order|shop|act|call|apply|join|register|subscribe|sign up|claim|download|reply|text|dm|message) (?:now|today|here|me|us|free|yes|below)\b|\bdon'?t miss\b|\bhurry\b|\blimited (?:time|offer|stock|seats|spots)\b|\bbefore it'?s (?:gone|too late)\b|\b(?:expires?|ends) (?:tonight|today|at midnight|soon)\b|\blink in (?:my )?bio\b/iu,
  },
  { token: 'qqphn', re: /(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/u },
  { token: 'qqcap', re: /\b[A-Z]{3,}\b[^a-z]*\b[A-Z]{2,}\b/u },
  { token: 'qqexc', re: /[!?]{2,}/u },
  { token: 'qqemo', re: /\p{Extended_Pictographic}/u },
];

/** The text as the classifier reads it: group names masked, then one marker token per spam cue present. */
export function classifierInput(text: string): string {
  const cues = SPAM_CUES.filter((c) => c.re.test(text)).map((c) => c.token);
  const masked = text.replace(GROUP_NAME, 'people');
  return cues.length ? `${masked}\n${cues.join(' ')}` : masked;
}
