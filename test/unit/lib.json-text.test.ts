// lib/json-text.ts: the texts of a JSON array's elements as JSON.stringify wrote them, and the end of
// a string, without parsing.
import { arrayElementTexts, stringEnd } from '../../lib/json-text.js';

describe('arrayElementTexts', () => {
  test('each element of a JSON.stringify text is JSON.stringify of its element', () => {
    const values: unknown[] = [
      { id: 1, name: 'a "quoted" name, with [brackets] and {braces}', tags: ['x', 'y,z'], nested: { a: [1, [2, { b: '\\\\' }]] } },
      { id: 'k-2', text: 'ends with a backslash \\', empty: {}, none: [], n: null, t: true, f: -0.5e-7 },
      'a string',
      42,
      [],
      { '10': 'integer key', é: 'ünïcode ✓ 🎉', ctrl: '\n\t\u0001' },
    ];
    const text = JSON.stringify({ documents: values, plan: 'x' });
    const texts = arrayElementTexts(text, '{"documents":'.length);
    expect(texts).toEqual(values.map((v) => JSON.stringify(v)));
    expect(texts!.map((t) => JSON.stringify(JSON.parse(t)))).toEqual(texts);
    expect(arrayElementTexts('[]', 0)).toEqual([]);
    expect(arrayElementTexts('[{}]', 0)).toEqual(['{}']);
  });

  test('no array there, or one not closed: undefined', () => {
    expect(arrayElementTexts('{"a":1}', 0)).toBeUndefined();
    expect(arrayElementTexts('[1,2', 0)).toBeUndefined();
    expect(arrayElementTexts('["unterminated]', 0)).toBeUndefined();
    expect(arrayElementTexts('[1}', 0)).toBeUndefined();
  });
});

describe('stringEnd', () => {
  test('the closing quote, past escaped quotes and runs of backslashes', () => {
    const cases = ['"plain"', '"with \\"quote\\""', '"backslash \\\\"', '"three \\\\\\" then"'];
    for (const c of cases) expect(stringEnd(c + ',x', 0)).toBe(c.length - 1);
    expect(stringEnd('"open', 0)).toBe(-1);
  });
});
