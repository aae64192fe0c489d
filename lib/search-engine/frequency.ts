// Meilisearch's matchingStrategy 'frequency': when no document holds every query word, the most
// frequent words are dropped first (with 'last', the query's last words). search.ts hands the words
// to matching rarest first, so the words rule (matched counts words from the first) drops them in
// that order; the proximity and exactness rules read them back in the query's order
// (MatchData.inQueryOrder).
// A word's frequency is estimated from the dictionaries alone, no posting read: the postings of every
// term it matches (itself, typo variants, prefix extensions, a synonym's first word) over all
// segments. A document holding two of its terms counts twice and the filter is not applied: the
// order, not the count, is what matters (Meilisearch counts the documents of the word's derivations,
// over the whole index too).
import type { DictionaryView } from './dictionary.js';
import { segmentRuns, unionRuns } from './match.js';
import type { QueryWord } from './query.js';
import type { Segment } from './segment.js';
import { exactIndex, fuzzyRanges } from './typo.js';

/**
 * The indexes of `words`, rarest first; equal counts keep the query's order (the later word dropped
 * first); a word no document holds comes last, dropped first (as Meilisearch, which ranks it as the
 * most frequent).
 */
export function rarestFirst(words: readonly QueryWord[], segments: readonly Segment[], dictionary: DictionaryView): number[] {
  const counts = words.map((w) => estimatedPostings(w, segments, dictionary) || Infinity);
  return words.map((_, i) => i).sort((a, b) => counts[a] - counts[b] || a - b);
}

function estimatedPostings(word: QueryWord, segments: readonly Segment[], dictionary: DictionaryView): number {
  const union = dictionary.terms;
  const runs = union.length ? unionRuns(union, word) : [];
  let n = 0;
  for (const seg of segments) {
    const postings = (a: number, b: number) => {
      n += seg.termStart[b] - seg.termStart[a];
    };
    if (dictionary.alone(seg)) fuzzyRanges(seg.terms, word.text, word.maxTypos, word.prefix, postings);
    else segmentRuns(seg.terms, union, runs, postings);
    for (const alt of word.synonyms) {
      const t = exactIndex(seg.terms, alt[0]);
      if (t >= 0) postings(t, t + 1);
    }
  }
  return n;
}
