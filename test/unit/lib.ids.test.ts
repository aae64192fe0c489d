// lib/ids.ts: prefixed base62 ids from node:crypto.
import { base62, newId } from '../../lib/ids.js';

const BASE62 = /^[0-9A-Za-z]*$/;

describe('newId', () => {
  test('prefix, separator and 20 base62 characters', () => {
    const id = newId('prod');
    expect(id).toMatch(/^prod_[0-9A-Za-z]{20}$/);
    expect(id).toHaveLength(25);
    expect(newId('app')).toMatch(/^app_[0-9A-Za-z]{20}$/);
  });

  test('no collisions over 10,000 ids', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i++) ids.add(newId('key'));
    expect(ids.size).toBe(10_000);
  });

  test('uses the whole base62 alphabet and nothing else', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) for (const c of newId('x').slice(2)) seen.add(c);
    expect(seen.size).toBe(62);
    expect([...seen].join('')).toMatch(BASE62);
  });
});

describe('base62', () => {
  test.each([0, 1, 7, 20, 64, 257])('length %i', (n) => {
    const s = base62(n);
    expect(s).toHaveLength(n);
    expect(s).toMatch(BASE62);
  });

  test('roughly uniform: every character within 30% of the mean over 124,000 draws', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) for (const c of base62(124)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(2000 * 0.7);
      expect(n).toBeLessThan(2000 * 1.3);
    }
  });
});
