// Key phrases: noun phrases found by wink-nlp's part-of-speech tags (optional adjectives or nouns
// followed by a noun, e.g. "electric vehicles", "battery prices"), grouped by their lemmas and
// ranked by frequency × (1 + 0.5 × extra words), so a repeated multi-word phrase beats a single
// common noun. Scores are divided by the best one (the top phrase scores 1).
import type { ItemSentence, ItsFunction } from 'wink-nlp';
import type { Wink } from './wink.js';
import { round } from './sentiment.js';

export interface KeyPhrase {
  phrase: string;
  score: number;
}

const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN']);
const HEAD = new Set(['NOUN', 'PROPN']);
const MAX_WORDS = 4;

export function keyPhrases(wink: Wink, text: string, max = 10): KeyPhrase[] {
  const its = wink.its;
  const doc = wink.readDoc(text);
  const groups = new Map<string, { phrase: string; count: number; words: number; first: number }>();
  let order = 0;
  doc.sentences().each((s: ItemSentence) => {
    const values = s.tokens().out(its.value) as string[];
    const pos = s.tokens().out(its.pos) as string[];
    const lemmas = s.tokens().out(its.lemma as ItsFunction<string>) as string[];
    const stop = s.tokens().out(its.stopWordFlag) as unknown as boolean[];
    const flush = (from: number, to: number) => {
      // trim to end on a noun, at most MAX_WORDS words
      let end = to;
      while (end > from && !HEAD.has(pos[end - 1])) end--;
      const start = Math.max(from, end - MAX_WORDS);
      if (end <= start) return;
      const key = lemmas.slice(start, end).join(' ').toLowerCase();
      if (key.length < 3) return;
      const g = groups.get(key);
      if (g) g.count++;
      else groups.set(key, { phrase: values.slice(start, end).join(' '), count: 1, words: end - start, first: order++ });
    };
    let runStart = -1;
    for (let i = 0; i <= values.length; i++) {
      const inPhrase = i < values.length && MODIFIER.has(pos[i]) && !stop[i] && /\p{L}/u.test(values[i]);
      if (inPhrase && runStart < 0) runStart = i;
      if (!inPhrase && runStart >= 0) {
        flush(runStart, i);
        runStart = -1;
      }
    }
  });
  const scored = [...groups.values()].map((g) => ({ ...g, raw: g.count * (1 + 0.5 * (g.words - 1)) }));
  scored.sort((a, b) => b.raw - a.raw || a.first - b.first);
  const best = scored[0]?.raw ?? 1;
  return scored.slice(0, max).map((g) => ({ phrase: g.phrase, score: round(g.raw / best) }));
}
