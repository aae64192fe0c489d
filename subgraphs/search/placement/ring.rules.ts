// Rendezvous (highest-random-weight) hashing: every node scores every index by a hash of both
// names; an index is held by the R nodes with the highest scores. A node that joins takes from each
// other node only the indexes it now outscores them on (about 1/N of each share); a node that goes
// takes nothing from the others: each of its indexes moves to the node that scored next.
import { createHash } from 'node:crypto';

export interface RingNode {
  id: string;
  url: string;
}

/** The node's score for an index: 48 bits of SHA-1 over both names. */
export function score(nodeId: string, indexId: string): number {
  return createHash('sha1').update(nodeId).update('\0').update(indexId).digest().readUIntBE(0, 6);
}

/** Every node, best first for `indexId` (ties, which need equal 48-bit hashes, by id). */
export function rankFor<N extends RingNode>(nodes: readonly N[], indexId: string): N[] {
  return nodes
    .map((n) => ({ n, s: score(n.id, indexId) }))
    .sort((a, b) => b.s - a.s || (a.n.id < b.n.id ? -1 : a.n.id > b.n.id ? 1 : 0))
    .map((x) => x.n);
}

/** The R nodes that hold `indexId` (all of them when there are fewer than R), best first. */
export function holdersOf<N extends RingNode>(nodes: readonly N[], indexId: string, replicas: number): N[] {
  return rankFor(nodes, indexId).slice(0, Math.max(1, replicas));
}
