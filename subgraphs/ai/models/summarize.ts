// Extractive summary: TextRank (Mihalcea & Tarau 2004) over sentences. Each sentence is a TF-IDF
// vector of its content-word lemmas (wink-nlp sentence split, lemmas and stop words); edges are
// cosine similarities; PageRank (damping 0.85) ranks sentences; the best ones are taken in their
// original order while the summary stays within `maxLength` characters.
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

export function summarize(wink: Wink, text: string, maxLength: number): SummaryResult {
  const its = wink.its;
  const doc = wink.readDoc(text);
  const sentences: string[] = [];
  const bags: Map<string, number>[] = [];
  doc.sentences().each((s: ItemSentence) => {
    sentences.push((s.out() as string).trim());
    const lemmas = s.tokens().filter((t: ItemToken) => t.out(its.type) === 'word' && !t.out(its.stopWordFlag)).out(its.lemma as ItsFunction<string>) as string[];
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
  const byRank = sentences.map((_, i) => i).sort((a, b) => rank[b] - rank[a] || a - b);
  const chosen = new Set<number>();
  let used = 0;
  for (const i of byRank) {
    const extra = sentences[i].length + (chosen.size ? 1 : 0);
    if (used + extra > maxLength) continue;
    chosen.add(i);
    used += extra;
  }
  // A first sentence longer than max_length is cut at a word boundary rather than returning nothing.
  let summary = [...chosen].sort((a, b) => a - b).map((i) => sentences[i]).join(' ');
  if (!summary && n) summary = cutAtWord(sentences[byRank[0]], maxLength);
  return { summary, length: summary.length, compression_ratio: text.length ? round(summary.length / text.length) : 0 };
}

function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
