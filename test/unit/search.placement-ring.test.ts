// Rendezvous hashing (subgraphs/search/placement/ring.rules.ts): R holders per index, shares near
// 1/N each, a join moves only what the new node takes, a death moves only what the dead node held.
import { holdersOf, type RingNode } from '../../subgraphs/search/placement/ring.rules.js';

const node = (id: string): RingNode => ({ id, url: `http://${id}:4004` });
const ids = Array.from({ length: 3000 }, (_, i) => `idx_${i}`);
const place = (nodes: RingNode[], r: number) => new Map(ids.map((id) => [id, holdersOf(nodes, id, r).map((n) => n.id)]));

test('each index has min(R, N) distinct holders, the same whatever order the nodes are listed in', () => {
  const three = [node('a'), node('b'), node('c')];
  for (const id of ids.slice(0, 200)) {
    const h = holdersOf(three, id, 2).map((n) => n.id);
    expect(new Set(h).size).toBe(2);
    expect(holdersOf([...three].reverse(), id, 2).map((n) => n.id)).toEqual(h);
    expect(holdersOf([node('a')], id, 2).map((n) => n.id)).toEqual(['a']);
  }
});

test('shares are even: each of 3 nodes holds about 2/3 of the indexes at R = 2', () => {
  const held = new Map<string, number>();
  for (const h of place([node('a'), node('b'), node('c')], 2).values()) for (const n of h) held.set(n, (held.get(n) ?? 0) + 1);
  for (const n of ['a', 'b', 'c']) expect(Math.abs(held.get(n)! / ids.length - 2 / 3)).toBeLessThan(0.05);
});

test('a join moves only what the new node takes; a death moves only what the dead node held', () => {
  const before = place([node('a'), node('b'), node('c')], 2);
  const joined = place([node('a'), node('b'), node('c'), node('d')], 2);
  for (const id of ids) {
    const kept = before.get(id)!.filter((n) => joined.get(id)!.includes(n));
    // at most one holder changes, and only to the new node
    expect(kept.length).toBeGreaterThanOrEqual(1);
    for (const n of joined.get(id)!) if (!before.get(id)!.includes(n)) expect(n).toBe('d');
  }
  const died = place([node('a'), node('c')], 2);
  const withB = place([node('a'), node('b'), node('c')], 2);
  for (const id of ids) if (!withB.get(id)!.includes('b')) expect(died.get(id)).toEqual(withB.get(id));
});
