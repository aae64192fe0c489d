// `_formatted` and `_matchesPosition` for the hits of a page (only those: it re-tokenises their text).
// A token is a match when its normalised form is one of the terms the query matched (typo.ts found them);
// a prefix extension highlights only the typed part ("<em>Harr</em>y Potter"), as Meilisearch does.
// Positions are UTF-16 code units of the ORIGINAL value (JavaScript string indices: `s.slice(start,
// start + length)` is the match), where Meilisearch counts UTF-8 bytes; arrays add `indices` (the element
// index), nested fields are keyed by dotted path.
// Cropping keeps `cropLength` words around the densest group of matches and marks cuts with `cropMarker`.
import type { HighlightTerm } from './match.js';
import { originalPrefixEnd, type OffsetToken } from './tokenizer.js';
import { DEFAULT_ANALYZER, type Analyzer } from './analyzer.js';

/** Which query word a normalised token matches (match.ts TermMatcher). */
export interface Terms {
  get(term: string): HighlightTerm | undefined;
}

export interface FormatOptions {
  terms: Terms;
  /** the index's language pipeline: tokens are found the way the index found them */
  analyzer?: Analyzer;
  highlight: (path: string) => boolean;
  /** crop length in words for this path, or 0 for no cropping */
  crop: (path: string) => number;
  preTag: string;
  postTag: string;
  cropMarker: string;
}

export interface MatchPosition {
  start: number;
  length: number;
  indices?: number[];
}

interface Span {
  start: number;
  end: number;
  word: number;
  token: number;
}

function matchesIn(text: string, tokens: OffsetToken[], terms: Terms): Span[] {
  const spans: Span[] = [];
  tokens.forEach((t, i) => {
    const h = terms.get(t.term);
    if (!h) return;
    const end = h.prefixLen > 0 && h.prefixLen < t.term.length ? originalPrefixEnd(text, t.start, t.end, h.prefixLen) : t.end;
    spans.push({ start: t.start, end, word: h.word, token: i });
  });
  return spans;
}

/** Positions of matches in a string value. */
export function matchPositions(text: string, terms: Terms, analyzer: Analyzer = DEFAULT_ANALYZER): MatchPosition[] {
  return matchesIn(text, analyzer.tokenizeWithOffsets(text), terms).map((s) => ({ start: s.start, length: s.end - s.start }));
}

/** Highlight and/or crop one string. */
export function formatText(text: string, path: string, o: FormatOptions): string {
  const doHighlight = o.highlight(path);
  const cropLen = o.crop(path);
  if (!doHighlight && !cropLen) return text;
  const tokens = (o.analyzer ?? DEFAULT_ANALYZER).tokenizeWithOffsets(text);
  const spans = matchesIn(text, tokens, o.terms);
  let from = 0;
  let to = text.length;
  let before = '';
  let after = '';
  if (cropLen && tokens.length > cropLen) {
    const [first, last] = cropWindow(tokens.length, spans, cropLen);
    from = first === 0 ? 0 : tokens[first].start;
    to = last === tokens.length - 1 ? text.length : tokens[last].end;
    if (first > 0) before = o.cropMarker;
    if (last < tokens.length - 1) after = o.cropMarker;
  }
  let out = before;
  let cur = from;
  if (doHighlight) {
    for (const s of spans) {
      if (s.start < from || s.end > to) continue;
      out += text.slice(cur, s.start) + o.preTag + text.slice(s.start, s.end) + o.postTag;
      cur = s.end;
    }
  }
  return out + text.slice(cur, to) + after;
}

/** [first, last] token indices of the crop window: most distinct query words, matches centred. */
export function cropWindow(nTokens: number, spans: Span[], len: number): [number, number] {
  if (!spans.length) return [0, Math.min(nTokens, len) - 1];
  let bestStart = spans[0].token;
  let bestScore = -1;
  for (let i = 0; i < spans.length; i++) {
    const words = new Set<number>();
    let last = spans[i].token;
    for (let j = i; j < spans.length && spans[j].token < spans[i].token + len; j++) {
      words.add(spans[j].word);
      last = spans[j].token;
    }
    const score = words.size * 1000 - (last - spans[i].token);
    if (score > bestScore) {
      bestScore = score;
      bestStart = spans[i].token;
    }
  }
  let lastMatch = bestStart;
  for (const s of spans) if (s.token >= bestStart && s.token < bestStart + len) lastMatch = s.token;
  const slack = len - (lastMatch - bestStart + 1);
  let first = Math.max(0, bestStart - Math.floor(slack / 2));
  const last = Math.min(nTokens - 1, first + len - 1);
  first = Math.max(0, last - len + 1);
  return [first, last];
}

/** `_formatted` value: strings formatted, numbers as formatted strings (as Meilisearch), containers walked. */
export function formatValue(value: unknown, path: string, o: FormatOptions): unknown {
  if (typeof value === 'string') return formatText(value, path, o);
  if (typeof value === 'number') return formatText(String(value), path, o);
  if (Array.isArray(value)) return value.map((v) => formatValue(v, path, o));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = formatValue(v, `${path}.${k}`, o);
    return out;
  }
  return value;
}

/** `_matchesPosition` entries of one field value, keyed by dotted path. */
export function collectMatches(
  value: unknown,
  path: string,
  terms: Terms,
  out: Record<string, MatchPosition[]>,
  indices: number[] = [],
  analyzer: Analyzer = DEFAULT_ANALYZER,
): void {
  if (typeof value === 'string' || typeof value === 'number') {
    const found = matchPositions(String(value), terms, analyzer);
    if (!found.length) return;
    const list = (out[path] ??= []);
    for (const m of found) list.push(indices.length ? { ...m, indices: [...indices] } : m);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => collectMatches(v, path, terms, out, [...indices, i], analyzer));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectMatches(v, `${path}.${k}`, terms, out, indices, analyzer);
  }
}
