// The engine's external id → internal id table (id-table.ts): the same answers as a Map through
// inserts, replacements, deletions and growth, with the keys read from the engine's id array.
import { ID_HASH, IdTable } from '../../lib/search-engine/id-table.js';

describe('IdTable', () => {
  test('answers as a Map through random inserts, replacements and deletions', () => {
    const extIds: (string | undefined)[] = [];
    const table = new IdTable((id) => extIds[id]);
    const ref = new Map<string, number>();
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let step = 0; step < 20_000; step++) {
      const key = rand(3) === 0 ? `doc-${rand(3000)}-é` : String(rand(3000));
      const old = table.get(key);
      expect(old).toBe(ref.get(key));
      if (rand(4) === 0) {
        if (old !== undefined) {
          expect(table.delete(key)).toBe(true);
          extIds[old] = undefined;
          ref.delete(key);
        } else expect(table.delete(key)).toBe(false);
        continue;
      }
      // a re-added document: the old internal id goes, a new one comes (as the engine does)
      if (old !== undefined) {
        table.delete(key);
        extIds[old] = undefined;
      }
      const id = extIds.length;
      extIds.push(key);
      table.set(key, id);
      ref.set(key, id);
    }
    expect(table.size).toBe(ref.size);
    for (const [k, v] of ref) expect(table.get(k)).toBe(v);
    expect(table.get('absent')).toBeUndefined();
    // tombstones do not make the table grow without bound: it rehashes its live entries
    expect(table.bytes()).toBeLessThanOrEqual(4 * 16 * 1024);
  });

  test('set on a present key moves it to the new id', () => {
    const extIds = ['a', 'b', 'a'];
    const table = new IdTable((id) => extIds[id]);
    table.set('a', 0);
    table.set('b', 1);
    table.set('a', 2);
    expect(table.get('a')).toBe(2);
    expect(table.size).toBe(2);
  });

  test('a snapshot of the slots is adopted as it is; slots of another hash or count are refused', () => {
    const extIds = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    const table = new IdTable((id) => extIds[id]);
    extIds.forEach((k, i) => table.set(k, i));
    table.delete('k7');
    const data = table.toData();
    expect(data.hash).toBe(ID_HASH);
    const copy = new IdTable((id) => extIds[id]);
    expect(copy.adopt({ ...data, hash: ID_HASH + 1 }, table.size)).toBe(false);
    expect(copy.adopt(data, table.size + 1)).toBe(false);
    expect(copy.adopt({ ...data, slots: data.slots.subarray(1) }, table.size)).toBe(false);
    expect(copy.adopt(data, table.size)).toBe(true);
    expect(copy.size).toBe(4999);
    for (let i = 0; i < extIds.length; i++) expect(copy.get(extIds[i])).toBe(i === 7 ? undefined : i);
    // the original keeps changing on its own (the slots were copied)
    table.delete('k8');
    expect(copy.get('k8')).toBe(8);
  });

  test('reserve makes room at once; the answers are the same', () => {
    const extIds = Array.from({ length: 3000 }, (_, i) => String(i * 7));
    const table = new IdTable((id) => extIds[id]);
    table.reserve(extIds.length);
    const bytes = table.bytes();
    extIds.forEach((k, i) => table.set(k, i));
    expect(table.bytes()).toBe(bytes);
    for (let i = 0; i < extIds.length; i++) expect(table.get(extIds[i])).toBe(i);
  });
});
