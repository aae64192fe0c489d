// Sentiment: VADER (vader-sentiment 1.1.3, Apache-2.0), a lexicon of ~7,500 scored words plus rules
// for negation, intensifiers, "but", capitals and punctuation. English only.
import vader from 'vader-sentiment';

export interface SentimentResult {
  /** VADER's compound score, -1 (most negative) to +1 (most positive) */
  score: number;
  label: 'positive' | 'neutral' | 'negative';
  confidence: number;
  /** VADER's proportions of the text that are positive, neutral and negative (they sum to 1) */
  scores: { positive: number; neutral: number; negative: number };
}

/** VADER's own thresholds on the compound score. */
export const SENTIMENT_THRESHOLD = 0.05;

export function sentiment(text: string): SentimentResult {
  const p = vader.SentimentIntensityAnalyzer.polarity_scores(text) as { neg: number; neu: number; pos: number; compound: number };
  const label = p.compound >= SENTIMENT_THRESHOLD ? 'positive' : p.compound <= -SENTIMENT_THRESHOLD ? 'negative' : 'neutral';
  // Confidence: how far the compound score is from the other labels (|compound| for a polar label,
  // its distance from the polar thresholds for neutral).
  const confidence = label === 'neutral' ? 1 - Math.abs(p.compound) / SENTIMENT_THRESHOLD : Math.abs(p.compound);
  return { score: round(p.compound), label, confidence: round(confidence), scores: { positive: round(p.pos), neutral: round(p.neu), negative: round(p.neg) } };
}

export function round(n: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
