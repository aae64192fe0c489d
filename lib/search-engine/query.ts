// From the query string to the words the engine looks up.
// - Tokenised with the indexing rule (tokenizer.ts); at most 10 words are used (as Meilisearch).
// - The LAST word is a prefix unless the query ends with a separator ("harr" finds "harry", "harr " does not).
// - Stop words are dropped, except the last word while it is still being typed (a prefix: "the" may become
//   "theory") and except when the query has nothing else (a query of only stop words still searches them).
// - Typo tolerance is off for the words of typoTolerance.disableOnWords and, with disableOnNumbers,
//   for words made of digits only (their prefix matching stays).
// - Synonyms add alternatives to a word: two-way groups make every member an alternative of the others,
//   one-way entries only from key to values. Values may be several words ("nyc" → "new york" requires
//   both words); so may keys: each word of a run of query words that spells a key ("new york" → "nyc")
//   gets the key's values, so a document holding "nyc" matches both words. A synonym match counts as
//   no typo but is not "exact".
// - A word written with a minus right before it (`-word`, at the query's start or after a space) is
//   not searched for: documents containing it, exactly, are left out (Meilisearch's negative keywords;
//   search.ts). "e-mail" is two searched words: its minus follows a letter.
// - Words between a pair of double quotes are a phrase (Meilisearch's phrase search): only documents
//   holding them next to each other, in that order, in one attribute value, answer (phrase.ts). Its
//   words are searched exactly (no typo, prefix or synonym); `-"..."` leaves out the documents holding
//   the phrase instead, and its words are not searched. An unpaired last quote is ignored; inside a
//   phrase a minus is a separator. At most MAX_QUERY_WORDS phrases of MAX_QUERY_WORDS words.
import { DEFAULT_ANALYZER, type Analyzer } from './analyzer.js';
import { normalize } from './tokenizer.js';
import { typoBudget } from './typo.js';
import type { EngineSettings } from './types.js';

export const MAX_QUERY_WORDS = 10;

export interface QueryWord {
  /** normalised word */
  text: string;
  prefix: boolean;
  maxTypos: number;
  /** synonym alternatives, each a list of normalised words that must all be present */
  synonyms: string[][];
}

/** key (its words, normalised, joined by a space) → alternatives (each a list of words) */
export type SynonymIndex = Map<string, string[][]>;

export function buildSynonyms(settings: Pick<EngineSettings, 'synonyms' | 'oneWaySynonyms'>, analyzer: Analyzer = DEFAULT_ANALYZER): SynonymIndex {
  const tokenize = (text: string) => analyzer.tokenize(text);
  const index: SynonymIndex = new Map();
  const add = (from: string, to: string) => {
    const keyWords = tokenize(from);
    const key = keyWords.join(' ');
    const value = tokenize(to);
    // a key longer than a query's words could never be spelled by one
    if (!key || keyWords.length > MAX_QUERY_WORDS || value.length === 0 || value.join(' ') === key) return;
    const list = index.get(key) ?? [];
    if (!list.some((v) => v.join(' ') === value.join(' '))) list.push(value);
    index.set(key, list);
  };
  for (const [k, values] of Object.entries(settings.synonyms ?? {})) {
    const group = [k, ...values];
    for (const a of group) for (const b of group) if (a !== b) add(a, b);
  }
  for (const [k, values] of Object.entries(settings.oneWaySynonyms ?? {})) for (const v of values) add(k, v);
  return index;
}

export interface QueryPhrase {
  /** its words, normalised as indexed (stop words kept: they are part of the phrase) */
  terms: string[];
  /** written `-"..."`: the documents holding the phrase are left out */
  negated: boolean;
  /** offsets of its opening and closing quotes in the query */
  open: number;
  close: number;
}

/** The query's phrases, in order: each pair of double quotes around at least one word. */
export function queryPhrases(query: string, analyzer: Analyzer = DEFAULT_ANALYZER): QueryPhrase[] {
  if (!query.includes('"')) return [];
  const quotes: number[] = [];
  for (let i = query.indexOf('"'); i >= 0; i = query.indexOf('"', i + 1)) quotes.push(i);
  const tokens = analyzer.tokenizeWithOffsets(query);
  const out: QueryPhrase[] = [];
  for (let k = 0; k + 1 < quotes.length && out.length < MAX_QUERY_WORDS; k += 2) {
    const [open, close] = [quotes[k], quotes[k + 1]];
    const terms = tokens.filter((t) => t.start > open && t.end <= close).map((t) => t.term);
    if (terms.length) out.push({ terms: terms.slice(0, MAX_QUERY_WORDS), negated: negated(query, open), open, close });
  }
  return out;
}

/** The phrase a token of the query stands in, if any. */
function phraseOf(phrases: readonly QueryPhrase[], start: number): QueryPhrase | undefined {
  for (const p of phrases) if (start > p.open && start < p.close) return p;
  return undefined;
}

/** A token written as `-word`: a minus right before it, at the query's start or after white space. */
function negated(query: string, start: number): boolean {
  return start > 0 && query[start - 1] === '-' && (start === 1 || /\s/.test(query[start - 2]));
}

/** The words a query excludes (`-word`), normalised as indexed; at most MAX_QUERY_WORDS. */
export function excludedWords(query: string, analyzer: Analyzer = DEFAULT_ANALYZER, phrases: readonly QueryPhrase[] = []): string[] {
  if (!query.includes('-')) return [];
  const out = analyzer
    .tokenizeWithOffsets(query)
    .filter((w) => negated(query, w.start) && !phraseOf(phrases, w.start))
    .map((w) => w.term);
  return [...new Set(out)].slice(0, MAX_QUERY_WORDS);
}

/** What of an index's settings reading a query needs (EngineState has them). */
export interface QueryRules {
  settings: EngineSettings;
  stopWords: ReadonlySet<string>;
  synonyms: SynonymIndex;
  analyzer: Analyzer;
  /** typoTolerance.disableOnWords, normalised as indexed */
  noTypoWords: ReadonlySet<string>;
}

export function parseQuery(query: string, rules: QueryRules, phrases: readonly QueryPhrase[] = []): QueryWord[] {
  const { stopWords, synonyms, analyzer } = rules;
  const everyToken = analyzer.tokenizeWithOffsets(query);
  const searched = (start: number) => {
    const p = phraseOf(phrases, start);
    return p ? !p.negated : !negated(query, start);
  };
  const words = everyToken.filter((w) => searched(w.start));
  // a query that ends with an excluded word ("harry -pot") has no word still being typed
  const endsSearched = words.length > 0 && words[words.length - 1] === everyToken[everyToken.length - 1];
  const all = words.map((w) => w.term);
  const tokens = all.slice(0, MAX_QUERY_WORDS);
  if (!tokens.length) return [];
  // the last kept word is still being typed only if it ends the query, and only if the language's
  // stemmer left it whole: a word it shortened ("fichier" → "fichi") was typed to its end
  const last = words[tokens.length - 1];
  const stemmed = analyzer !== DEFAULT_ANALYZER && last.term.length < normalize(query.slice(last.start, last.end)).length;
  const lastIsPrefix = all.length === tokens.length && endsSearched && /[\p{L}\p{N}\p{M}]$/u.test(query) && !stemmed;
  let kept = tokens.map((text, i) => ({ text, prefix: lastIsPrefix && i === tokens.length - 1, quoted: !!phraseOf(phrases, words[i].start), synonyms: [] as string[][] }));
  for (const w of kept) if (!w.quoted) w.synonyms = synonyms.get(w.text) ?? [];
  withKeysOfSeveralWords(kept, synonyms);
  const isStop = (t: string) => stopWords.has(t) || analyzer.isStopWord(t);
  const withoutStops = kept.filter((w) => w.prefix || !isStop(w.text));
  if (withoutStops.some((w) => !isStop(w.text))) kept = withoutStops;
  return kept.map((w) => ({
    text: w.text,
    prefix: w.prefix,
    maxTypos: w.quoted ? 0 : wordTypos(w.text, rules),
    synonyms: w.synonyms,
  }));
}

/**
 * The typos a query word (normalised) may have: its length's budget (typo.ts), none for the words of
 * typoTolerance.disableOnWords or, with disableOnNumbers, for a number.
 */
export function wordTypos(text: string, rules: Pick<QueryRules, 'settings' | 'noTypoWords'>): number {
  const tolerance = rules.settings.typoTolerance;
  if (rules.noTypoWords.has(text) || (tolerance.disableOnNumbers === true && /^\d+$/.test(text))) return 0;
  return typoBudget(text, tolerance);
}

/**
 * Synonym keys of several words: each word of a run of unquoted query words that spells one (stop
 * words included, as typed; a prefix word only as typed so far) gets the key's values.
 */
function withKeysOfSeveralWords(words: { text: string; quoted: boolean; synonyms: string[][] }[], synonyms: SynonymIndex): void {
  for (let i = 0; i < words.length; i++) {
    let key = words[i].text;
    for (let j = i + 1; j < words.length && !words[i].quoted && !words[j].quoted; j++) {
      key += ' ' + words[j].text;
      const values = synonyms.get(key);
      if (!values) continue;
      for (let k = i; k <= j; k++) {
        const own = words[k].synonyms;
        words[k].synonyms = own.concat(values.filter((v) => !own.some((o) => o.join(' ') === v.join(' '))));
      }
    }
  }
}
