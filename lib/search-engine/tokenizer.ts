// Tokenise and normalise text, one rule for indexing, querying and highlighting:
//   1. Unicode NFD, then drop combining marks (\p{M}): "Pré" → "Pre", "Ærø" keeps Æ/ø (no decomposition exists);
//   2. lowercase;
//   3. a token is a maximal run of letters and digits (\p{L}\p{N}); everything else separates.
// So "J.K. Rowling/Mary GrandPré" → j k rowling mary grandpre, "python3-foo" → python3 foo.
// Not done (differences from Meilisearch's charabia): no CJK segmentation, no stemming, no splitting of
// camelCase or letter/digit boundaries ("python3" stays one token).

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;
const TOKEN = /[\p{L}\p{N}]+/gu;
const ASCII_TOKEN = /[a-z0-9]+/g;
/** Tokens longer than this are cut: they are never typed by people and would bloat the dictionary. */
export const MAX_TOKEN_LENGTH = 64;

export function normalize(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** Normalised tokens of `text`, in order (the fast path used when indexing). */
export function tokenize(text: string): string[] {
  const ascii = ASCII_ONLY.test(text);
  const norm = ascii ? text.toLowerCase() : normalize(text);
  const out = norm.match(ascii ? ASCII_TOKEN : TOKEN);
  if (!out) return [];
  for (let i = 0; i < out.length; i++) if (out[i].length > MAX_TOKEN_LENGTH) out[i] = out[i].slice(0, MAX_TOKEN_LENGTH);
  return out;
}

export interface OffsetToken {
  /** normalised token */
  term: string;
  /** UTF-16 offsets of the token in the ORIGINAL text */
  start: number;
  end: number;
}

/**
 * Tokens with their offsets in the original (un-normalised) text, for highlighting and `_matchesPosition`.
 * Normalisation can change lengths (NFD), so tokens are found on the original text and normalised one by one;
 * a combining mark directly after a letter belongs to that token.
 */
export function tokenizeWithOffsets(text: string): OffsetToken[] {
  const out: OffsetToken[] = [];
  if (ASCII_ONLY.test(text)) {
    // the same tokens without the Unicode work: ASCII has no marks, and lowercasing keeps offsets
    const ascii = /[A-Za-z0-9]+/g;
    for (let m = ascii.exec(text); m; m = ascii.exec(text)) out.push({ term: m[0].toLowerCase().slice(0, MAX_TOKEN_LENGTH), start: m.index, end: m.index + m[0].length });
    return out;
  }
  const re = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const term = normalize(m[0]).replace(/[^\p{L}\p{N}]/gu, '');
    if (term) out.push({ term: term.slice(0, MAX_TOKEN_LENGTH), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * Offset in the original text where the first `chars` normalised characters of the token [start, end) end:
 * used to highlight only the typed prefix of a prefix match ("<em>Harr</em>y").
 */
export function originalPrefixEnd(text: string, start: number, end: number, chars: number): number {
  let count = 0;
  let i = start;
  while (i < end && count < chars) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    count += normalize(ch).replace(/[^\p{L}\p{N}]/gu, '').length;
    i += ch.length;
  }
  // keep combining marks attached to the last highlighted letter
  while (i < end && /\p{M}/u.test(text[i])) i++;
  return i;
}
