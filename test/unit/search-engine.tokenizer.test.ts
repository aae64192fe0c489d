// Tokenising and normalising: the one rule shared by indexing, querying and highlighting.
import { normalize, originalPrefixEnd, tokenize, tokenizeWithOffsets } from '../../lib/search-engine/tokenizer.js';

describe('normalize', () => {
  test.each([
    ['Crème Brûlée', 'creme brulee'],
    ['ÀÉÎÕÜ', 'aeiou'],
    ['GrandPré', 'grandpre'],
    ['Straße', 'straße'],
    ['ÆRØ', 'ærø'],
  ])('%s → %s', (a, b) => expect(normalize(a)).toBe(b));
});

describe('tokenize', () => {
  test('splits on everything that is not a letter or a digit', () => {
    expect(tokenize('J.K. Rowling/Mary GrandPré')).toEqual(['j', 'k', 'rowling', 'mary', 'grandpre']);
    expect(tokenize('python3-foo_bar, v1.2.3!')).toEqual(['python3', 'foo', 'bar', 'v1', '2', '3']);
    expect(tokenize("l'été — naïve   café")).toEqual(['l', 'ete', 'naive', 'cafe']);
  });

  test('non-Latin letters are letters', () => {
    expect(tokenize('Рас-эль-Хайма 東京')).toEqual(['рас', 'эль', 'хаима', '東京']);
  });

  test('empty and separator-only input', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,.;- ')).toEqual([]);
  });

  test('very long tokens are cut to 64 characters', () => {
    expect(tokenize('a'.repeat(100))[0]).toHaveLength(64);
  });
});

describe('tokenizeWithOffsets', () => {
  test('offsets point into the original text (UTF-16 code units)', () => {
    const text = 'Crème brûlée, “déjà vu”';
    const toks = tokenizeWithOffsets(text);
    expect(toks.map((t) => t.term)).toEqual(['creme', 'brulee', 'deja', 'vu']);
    for (const t of toks) expect(normalize(text.slice(t.start, t.end))).toBe(t.term);
  });

  test('decomposed input keeps its combining marks inside the token', () => {
    const text = 'cafe\u0301 au lait';
    const toks = tokenizeWithOffsets(text);
    expect(toks[0]).toEqual({ term: 'cafe', start: 0, end: 5 });
  });

  test('agrees with tokenize on plain and accented text', () => {
    const text = 'Harry Potter and the Half-Blood Prince (Ærø édition)';
    expect(tokenizeWithOffsets(text).map((t) => t.term)).toEqual(tokenize(text));
  });

  test('the ASCII fast path gives what the Unicode rule gives', () => {
    const unicodeRule = (text: string) =>
      [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)].map((m) => ({ term: normalize(m[0]).slice(0, 64), start: m.index!, end: m.index! + m[0].length }));
    let seed = 3;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 120) }, () => String.fromCharCode(Math.floor(rnd() * 128))).join('') + 'x'.repeat(i % 3 ? 0 : 70);
      expect(tokenizeWithOffsets(text)).toEqual(unicodeRule(text));
    }
  });
});

describe('originalPrefixEnd', () => {
  test('maps a normalised prefix length back to the original text', () => {
    expect(originalPrefixEnd('Harry', 0, 5, 4)).toBe(4);
    expect(originalPrefixEnd('Élan', 0, 4, 2)).toBe(2);
    const decomposed = 'E\u0301lan';
    expect(originalPrefixEnd(decomposed, 0, decomposed.length, 1)).toBe(2);
  });
});
