import { DomainError } from '../../lib/errors.js';
import { getParam, intParam, parseQuery, splitKey } from '../../rest-bridge/query.js';

describe('rest-bridge bracket query strings', () => {
  test('splits bracket keys', () => {
    expect(splitKey('page[number]')).toEqual(['page', 'number']);
    expect(splitKey('filters[price][min]')).toEqual(['filters', 'price', 'min']);
    expect(splitKey('ids[]')).toEqual(['ids', '']);
    expect(splitKey('plain')).toEqual(['plain']);
    expect(splitKey('bad[key')).toEqual(['bad[key']);
  });

  test('splits every key as the bracket grammar says, malformed ones whole', () => {
    // the grammar as a regular expression, against keys made of the characters that matter
    const reference = (key: string): string[] => {
      const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
      if (!m) return [key];
      const parts = [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((b) => b[1])];
      return parts.length > 6 ? [key] : parts;
    };
    const alphabet = ['a', 'b', '[', ']', '_', ' '];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % alphabet.length;
    const keys = ['', '[', ']', '[]', 'a[]', ']a[b]', 'a]b[c]', 'a[b][c][d][e][f]', 'a[b][c][d][e][f][g]', 'a[b]c', 'a[[b]]', 'a[b]]'];
    for (let i = 0; i < 5000; i++) keys.push(Array.from({ length: 1 + (i % 14) }, () => alphabet[next()]).join(''));
    for (const key of keys) expect([key, splitKey(key)]).toEqual([key, reference(key)]);
  });

  test('parses nested objects, arrays and plain values', () => {
    const q = parseQuery('page[number]=2&page[size]=50&filter[status]=active&filters[price][min]=100&ids[]=a&ids[]=b&search=red+shoe&x=%20y');
    expect(JSON.parse(JSON.stringify(q))).toEqual({
      page: { number: '2', size: '50' },
      filter: { status: 'active' },
      filters: { price: { min: '100' } },
      ids: ['a', 'b'],
      search: 'red shoe',
      x: ' y',
    });
    expect(getParam(q, 'page[size]')).toBe('50');
    expect(getParam(q, 'filters[price][min]')).toBe('100');
    expect(getParam(q, 'ids')).toBe('b');
    expect(getParam(q, 'page')).toBeUndefined();
    expect(getParam(q, 'missing[x]')).toBeUndefined();
  });

  test('accepts a leading ? and repeated keys (last wins)', () => {
    expect(getParam(parseQuery('?a=1&a=2'), 'a')).toBe('2');
  });

  test('__proto__ keys cannot pollute Object.prototype', () => {
    const q = parseQuery('__proto__[polluted]=yes&constructor[prototype][polluted]=yes');
    expect(({} as any).polluted).toBeUndefined();
    expect(getParam(q, '__proto__[polluted]')).toBe('yes');
  });

  test('intParam: defaults, bounds and the parameter named in the error', () => {
    const q = parseQuery('page[number]=3&page[size]=abc&n=-1&big=101&float=1.5');
    expect(intParam(q, 'page[number]', { default: 1, min: 1 })).toBe(3);
    expect(intParam(q, 'absent', { default: 20 })).toBe(20);
    const err = (name: string, opts: Parameters<typeof intParam>[2]) => {
      try {
        intParam(q, name, opts);
      } catch (e) {
        return e as DomainError;
      }
      throw new Error('expected a throw');
    };
    for (const [name, opts] of [
      ['page[size]', { default: 20, min: 1, max: 100 }],
      ['n', { default: 1, min: 1 }],
      ['big', { default: 20, min: 1, max: 100 }],
      ['float', { default: 1 }],
    ] as const) {
      const e = err(name, opts);
      expect(e).toBeInstanceOf(DomainError);
      expect(e.status).toBe(400);
      expect(e.code).toBe('BAD_REQUEST');
      expect(e.opts.parameter).toBe(name);
    }
  });
});
