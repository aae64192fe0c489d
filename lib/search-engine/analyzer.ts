// Language pipelines: how an index with `languages` turns text into terms. One analyzer is used at
// indexing, at query time (words and synonyms) and for highlighting, so they always agree:
//   1. words are found on the original text (letters, digits and their combining marks), and runs of
//      Chinese, Japanese or Thai script are cut into words by Intl.Segmenter (ICU dictionaries)
//      when the index lists zh, ja or th;
//   2. a word is lowercased and stemmed by the Snowball stemmer of the index's stemming language
//      (lunr's English stemmer, lunr-languages for the others): "compression" and "compress" → "compress";
//   3. then normalised as every index does (NFD, combining marks removed), so accents stay optional.
// Highlights keep the original words: a term maps back to the span of the word it came from.
// An index without `languages` uses tokenizer.ts unchanged (DEFAULT_ANALYZER), so indexes and
// snapshots made before languages existed answer exactly as they did.
import { createRequire } from 'node:module';
import { MAX_TOKEN_LENGTH, normalize, tokenize, tokenizeWithOffsets, type OffsetToken } from './tokenizer.js';
import { EngineError } from './types.js';

export interface Analyzer {
  /** '' for the default rule; otherwise the languages, comma-joined (part of the index's shape) */
  readonly key: string;
  tokenize(text: string): string[];
  tokenizeWithOffsets(text: string): OffsetToken[];
  /** a term the query may drop (the stemming language's stop words, as stemmed terms) */
  isStopWord(term: string): boolean;
}

export const DEFAULT_ANALYZER: Analyzer = { key: '', tokenize, tokenizeWithOffsets, isStopWord: () => false };

/** Languages with a Snowball stemmer (lunr: en; lunr-languages: the rest). */
export const STEMMING_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'ru', 'sv', 'no', 'da', 'fi', 'hu', 'ro', 'tr'] as const;
/** Languages written without spaces between words, segmented with Intl.Segmenter. */
export const SEGMENTED_LANGUAGES = ['zh', 'ja', 'th'] as const;
export const SUPPORTED_LANGUAGES: readonly string[] = [...STEMMING_LANGUAGES, ...SEGMENTED_LANGUAGES];
export const MAX_LANGUAGES = 4;

const SEGMENTED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const STEM_CACHE_MAX = 200_000;

/** lunr-languages file names that differ from the ISO 639-1 code (Dutch ships as "du"). */
const LUNR_FILE: Record<string, string> = { nl: 'du' };

interface LunrToken { toString(): string }
interface LunrLike {
  Token: new (s: string) => LunrToken;
  stemmer: (t: LunrToken) => LunrToken;
  stopWordFilter: (t: LunrToken) => LunrToken | undefined;
  [lang: string]: unknown;
}

let lunrCache: LunrLike | null = null;
const loadedLanguages = new Set<string>();

/** lunr with the stemmers of `lang` registered (loaded once per process, on first use). */
function lunrFor(lang: string): LunrLike {
  const require = createRequire(import.meta.url);
  if (!lunrCache) {
    lunrCache = require('lunr') as LunrLike;
    (require('lunr-languages/lunr.stemmer.support') as (l: LunrLike) => void)(lunrCache);
  }
  if (lang !== 'en' && !loadedLanguages.has(lang)) {
    (require(`lunr-languages/lunr.${LUNR_FILE[lang] ?? lang}`) as (l: LunrLike) => void)(lunrCache);
    loadedLanguages.add(lang);
  }
  return lunrCache;
}

function stemmerOf(lang: string): { stem: (w: string) => string; stop: (w: string) => boolean } {
  const lunr = lunrFor(lang);
  const ns = lang === 'en' ? lunr : (lunr[LUNR_FILE[lang] ?? lang] as LunrLike);
  return {
    stem: (w) => ns.stemmer(new lunr.Token(w)).toString(),
    stop: (w) => ns.stopWordFilter(new lunr.Token(w)) === undefined,
  };
}

/** Checks an index's `languages` setting: known codes, no repeats, at most MAX_LANGUAGES. */
export function checkLanguages(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new EngineError('invalid_settings', 'languages must be an array of language codes', 'languages');
  const langs = [...new Set((v as string[]).map((x) => x.toLowerCase()))];
  const unknown = langs.filter((l) => !SUPPORTED_LANGUAGES.includes(l));
  if (unknown.length) throw new EngineError('invalid_settings', `languages: unknown ${unknown.join(', ')}; supported: ${SUPPORTED_LANGUAGES.join(', ')}`, 'languages');
  if (langs.length > MAX_LANGUAGES) throw new EngineError('invalid_settings', `languages: at most ${MAX_LANGUAGES}`, 'languages');
  if (langs.filter((l) => (STEMMING_LANGUAGES as readonly string[]).includes(l)).length > 1) {
    throw new EngineError('invalid_settings', 'languages: at most one stemming language per index (segmented languages zh, ja, th may be added to it)', 'languages');
  }
  return langs;
}

class LanguageAnalyzer implements Analyzer {
  readonly key: string;
  private readonly segmenter: Intl.Segmenter | null;
  private readonly stemmer: { stem: (w: string) => string; stop: (w: string) => boolean } | null;
  private readonly cache = new Map<string, string>();
  private readonly stops = new Set<string>();

  constructor(languages: readonly string[]) {
    this.key = languages.join(',');
    const seg = languages.find((l) => (SEGMENTED_LANGUAGES as readonly string[]).includes(l));
    this.segmenter = seg ? new Intl.Segmenter(seg, { granularity: 'word' }) : null;
    const stemLang = languages.find((l) => (STEMMING_LANGUAGES as readonly string[]).includes(l));
    this.stemmer = stemLang ? stemmerOf(stemLang) : null;
  }

  /** The term of one word: lowercased, stemmed, normalised; '' when nothing is left. */
  private term(word: string): string {
    const hit = this.cache.get(word);
    if (hit !== undefined) return hit;
    const lower = word.normalize('NFC').toLowerCase();
    let term = this.stemmer ? this.stemmer.stem(lower) : lower;
    term = normalize(term).replace(/[^\p{L}\p{N}]/gu, '').slice(0, MAX_TOKEN_LENGTH);
    if (this.stemmer?.stop(lower)) this.stops.add(term);
    if (this.cache.size >= STEM_CACHE_MAX) this.cache.clear();
    this.cache.set(word, term);
    return term;
  }

  tokenizeWithOffsets(text: string): OffsetToken[] {
    const out: OffsetToken[] = [];
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
      const word = m[0];
      if (this.segmenter && SEGMENTED_SCRIPT.test(word)) {
        for (const s of this.segmenter.segment(word)) {
          if (!s.isWordLike) continue;
          const term = this.term(s.segment);
          if (term) out.push({ term, start: m.index + s.index, end: m.index + s.index + s.segment.length });
        }
        continue;
      }
      const term = this.term(word);
      if (term) out.push({ term, start: m.index, end: m.index + word.length });
    }
    return out;
  }

  tokenize(text: string): string[] {
    return this.tokenizeWithOffsets(text).map((t) => t.term);
  }

  isStopWord(term: string): boolean {
    return this.stops.has(term);
  }
}

const analyzers = new Map<string, Analyzer>();

/** The analyzer of a `languages` setting (shared by every index with the same languages). */
export function analyzerFor(languages: readonly string[] | undefined): Analyzer {
  if (!languages || languages.length === 0) return DEFAULT_ANALYZER;
  const key = languages.join(',');
  let a = analyzers.get(key);
  if (!a) analyzers.set(key, (a = new LanguageAnalyzer(languages)));
  return a;
}
