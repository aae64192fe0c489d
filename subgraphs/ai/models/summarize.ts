// Extractive summary: TextRank (Mihalcea & Tarau 2004) over sentences, with a position prior and
// redundancy removal (issue 31 item 6). Each sentence is a TF-IDF vector of its content-word lemmas
// (wink-nlp sentence split, lemmas and stop words); edges are cosine similarities; PageRank (damping
// 0.85) ranks sentences. A sentence's score blends its rank (scaled to the best one's) with a prior
// for its position (positionPrior), weighted POSITION_WEIGHT; sentences are then taken best first,
// skipping one whose cosine similarity to a sentence already taken exceeds REDUNDANCY, while the
// summary stays within `maxLength` characters, and printed in their original order.
// POSITION_WEIGHT is the middle of the range that keeps every main point of the train part of
// test/ai-quality/summaries.json (0.2–1; bench/ai-quality/summaries.ts prints it).
import type { ItemSentence, ItemToken, ItsFunction } from 'wink-nlp';
import type { Wink } from './wink.js';
import { round } from './sentiment.js';

export interface SummaryResult {
  summary: string;
  length: number;
  compression_ratio: number;
}

const DAMPING = 0.85;
const ITERATIONS = 30;
/** Share of a sentence's score that comes from its position (the rest from TextRank). */
export const POSITION_WEIGHT = 0.6;
/** A sentence this similar (cosine) to one already in the summary adds nothing new. */
export const REDUNDANCY = 0.5;
/** Content words from which a sentence counts as fully informative for the position prior. */
const INFORMATIVE = 10;

export function summarize(wink: Wink, text: string, maxLength: number, positionWeight = POSITION_WEIGHT): SummaryResult {
  const its = wink.its;
  const doc = wink.readDoc(text);
  const sentences: string[] = [];
  const bags: Map<string, number>[] = [];
  const lengths: number[] = [];
  doc.sentences().each((s: ItemSentence) => {
    sentences.push((s.out() as string).trim());
    const lemmas = s.tokens().filter((t: ItemToken) => t.out(its.type) === 'word' && !t.out(its.stopWordFlag)).out(its.lemma as ItsFunction<string>) as string[];
    lengths.push(lemmas.length);
    const bag = new Map<string, number>();
    for (const l of lemmas) bag.set(l.toLowerCase(), (bag.get(l.toLowerCase()) ?? 0) + 1);
    bags.push(bag);
  });
  const n = sentences.length;
  const df = new Map<string, number>();
  for (const b of bags) for (const k of b.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const vectors = bags.map((b) => {
    const v = new Map<string, number>();
    for (const [k, tf] of b) v.set(k, tf * Math.log(1 + n / (df.get(k) ?? 1)));
    return v;
  });
  const norms = vectors.map((v) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0)) || 1);
  const sim: number[][] = vectors.map((a, i) =>
    vectors.map((b, j) => {
      if (i === j) return 0;
      let dot = 0;
      for (const [k, x] of a) dot += x * (b.get(k) ?? 0);
      return dot / (norms[i] * norms[j]);
    }),
  );
  const outWeight = sim.map((row) => row.reduce((s, x) => s + x, 0));
  let rank = new Array<number>(n).fill(1 / Math.max(1, n));
  for (let it = 0; it < ITERATIONS; it++) {
    rank = rank.map((_, i) => (1 - DAMPING) / n + DAMPING * sim.reduce((s, row, j) => s + (outWeight[j] ? (row[i] / outWeight[j]) * rank[j] : 0), 0));
  }
  const best = Math.max(...rank);
  const score = rank.map((r, i) => (1 - positionWeight) * (r / best) + positionWeight * positionPrior(i, lengths[i]));
  const byRank = sentences.map((_, i) => i).sort((a, b) => score[b] - score[a] || a - b);
  const chosen = new Set<number>();
  let used = 0;
  for (const i of byRank) {
    const extra = sentences[i].length + (chosen.size ? 1 : 0);
    if (used + extra > maxLength) continue;
    if ([...chosen].some((j) => sim[i][j] > REDUNDANCY)) continue;
    chosen.add(i);
    used += extra;
  }
  // A first sentence longer than max_length is cut at a word boundary rather than returning nothing.
  let summary = [...chosen].sort((a, b) => a - b).map((i) => sentences[i]).join(' ');
  if (!summary && n) summary = cutAtWord(sentences[byRank[0]], maxLength);
  return { summary, length: summary.length, compression_ratio: text.length ? round(summary.length / text.length) : 0 };
}

/**
 * News puts its main point first, unless the first sentence is a short hook ("It was the kind of
 * match fans talk about for years."): the prior falls with the position (1/√(position+1)) and is
 * scaled by how much the sentence says (its content words, up to INFORMATIVE of them).
 */
export function positionPrior(i: number, contentWords: number): number {
  return Math.min(1, contentWords / INFORMATIVE) / Math.sqrt(i + 1);
}

/** `s` cut to at most `max` characters at a word boundary, with an ellipsis. */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** max_length when a request gives none: a third of the text, at least 200 characters (ai.md). */
export function defaultSummaryLength(text: string): number {
  return Math.max(200, Math.ceil(text.length / 3));
}
