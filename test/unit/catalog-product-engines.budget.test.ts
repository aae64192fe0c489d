// The catalog's product-search engines under a memory budget (product-search/search.engines.ts):
// least recently used partitions go first, never the one just used nor one catching up.
import { toEvict } from '../../subgraphs/catalog/product-search/search.engines.js';

const e = (bytes: number, busy = 0) => ({ bytes, busy });

test('under the budget nothing is unloaded', () => {
  expect(toEvict([['a', e(10)], ['b', e(10)]], 20, 'b')).toEqual([]);
});

test('over it, the least recently used go first until the rest fits', () => {
  expect(toEvict([['a', e(10)], ['b', e(10)], ['c', e(10)], ['d', e(10)]], 25, 'd')).toEqual(['a', 'b']);
});

test('the partition just used stays even alone over the budget; a busy one is skipped', () => {
  expect(toEvict([['a', e(10, 1)], ['b', e(10)], ['c', e(50)]], 20, 'c')).toEqual(['b']);
  expect(toEvict([['c', e(50)]], 20, 'c')).toEqual([]);
});
