// Sentiment: VADER (vader-sentiment 1.1.3, Apache-2.0), a lexicon of ~7,500 scored words plus rules
// for negation, intensifiers, capitals and punctuation, with three things on top (issue 31 item 4):
// - phrase rules for the negations and idioms of reviews and tickets ("not bad at all", "no
//   complaints", "never had a problem", "not worth it"), and review words VADER lacks
//   (sentiment.lexicon.ts), each on VADER's valence scale;
// - contrast: a text is cut at "but"/"however" and the clause after it weighs CONTRAST_AFTER times
//   the clause before it;
// - a neutral band: |score| below NEUTRAL_BAND is neutral, calibrated on the train part of
//   test/ai-quality/sentiment-reviews.json (bench/ai-quality/sentiment.ts prints the held-out figure).
// English only.
import vader from 'vader-sentiment';
import { CONTRAST, NEGATORS, PHRASES, WORDS } from './sentiment.lexicon.js';

export interface SentimentResult {
  /** compound score, -1 (most negative) to +1 (most positive) */
  score: number;
  label: 'positive' | 'neutral' | 'negative';
  confidence: number;
  /** VADER's proportions of the text that are positive, neutral and negative (they sum to 1; per clause, weighted by length) */
  scores: { positive: number; neutral: number; negative: number };
}

/** |score| below this is neutral (calibrated on the train part, see above). */
export const NEUTRAL_BAND = 0.1;
/** How much more the clause after "but" counts than the one before it. */
export const CONTRAST_AFTER = 3;
/** VADER's normalisation constant: compound = sum / sqrt(sum² + ALPHA). */
const ALPHA = 15;
/** VADER's factor for a negated word. */
const NEGATION = -0.74;
const PHRASES_G = PHRASES.map(([re, v]) => [new RegExp(re.source, 'g'), v] as const);

export function sentiment(text: string, band = NEUTRAL_BAND): SentimentResult {
  const clauses = text.split(CONTRAST).filter((c) => c.trim());
  if (!clauses.length) clauses.push(text);
  // The last clause counts CONTRAST_AFTER times each earlier one; the sum is normalised back to a
  // valence sum so one clause alone reads exactly as before.
  const weights = clauses.map((_, i) => (i === clauses.length - 1 ? CONTRAST_AFTER : 1));
  const total = weights.reduce((s, w) => s + w, 0);
  const read = clauses.map(valence);
  const sum = read.reduce((s, r, i) => s + (weights[i] * clauses.length * r.sum) / total, 0);
  const compound = sum / Math.sqrt(sum * sum + ALPHA);
  // VADER's proportions of each clause, weighted by the clause's length.
  const chars = clauses.reduce((s, c) => s + c.length, 0) || 1;
  const share = (k: 'pos' | 'neu' | 'neg') => read.reduce((s, r, i) => s + (r.vader[k] * clauses[i].length) / chars, 0);
  const label = compound >= band ? 'positive' : compound <= -band ? 'negative' : 'neutral';
  // Confidence: how far the score is from the other labels (|score| beyond the band for a polar
  // label, distance from the band's edges for neutral).
  const confidence = label === 'neutral' ? 1 - Math.abs(compound) / band : Math.min(1, Math.abs(compound));
  return { score: round(compound), label, confidence: round(confidence), scores: { positive: round(share('pos')), neutral: round(share('neu')), negative: round(share('neg')) } };
}

type VaderScores = { neg: number; neu: number; pos: number; compound: number };

/** The valence sum of one clause: VADER on what the phrase rules leave, plus phrases and review words. */
export function valence(clause: string): { sum: number; vader: VaderScores } {
  let rest = clause.toLowerCase().replace(/[’‘]/g, "'");
  let sum = 0;
  for (const [g, v] of PHRASES_G) {
    rest = rest.replace(g, () => {
      sum += v;
      return ' ';
    });
  }
  const words = rest.match(/[a-z']+/g) ?? [];
  words.forEach((w, i) => {
    const v = WORDS[w];
    if (v === undefined) return;
    const negated = words.slice(Math.max(0, i - 3), i).some((x) => NEGATORS.has(x) || x.endsWith("n't"));
    sum += negated ? v * NEGATION : v;
  });
  const p = vader.SentimentIntensityAnalyzer.polarity_scores(rest) as VaderScores;
  // VADER answers the normalised compound; its valence sum is recovered by inverting the normalisation.
  const c = p.compound;
  const vaderSum = Math.abs(c) >= 0.9999 ? Math.sign(c) * 150 : (c * Math.sqrt(ALPHA)) / Math.sqrt(1 - c * c);
  return { sum: sum + vaderSum, vader: p };
}

export function round(n: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
