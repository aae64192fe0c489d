// Antonym axes and negation for `glove-sif-100d` (issue 31: "The water is hot" and "…cold" were
// 0.85 alike, "The price went up" and "…down" 0.98). GloVe learns words from their contexts, and
// opposites share their contexts, so their vectors sit close; averaging cannot tell them apart.
//
// Method: the antonym-repel step of counter-fitting (Mrkšić et al. 2016, "Counter-fitting Word
// Vectors to Linguistic Constraints"), in closed form on a small lexicon (word-vectors.antonyms.ts):
// for each pair of poles A and B, u = the unit direction from B's centroid to A's; every word of A
// moves by +s·u, every word of B by −s·u (a word in several rows sums its moves), with s the
// smallest step that makes the two centroids orthogonal (cosine 0: counter-fitting's margin δ = 1
// in cosine distance, taken from the paper, not fitted to any of our sets). Synonyms of one pole move
// together, so "closes" and "shuts" stay alike while "open" goes the other way.
// Negation: a lexicon word within NEGATION_SCOPE words after "not", "no", "never" (and "n't") is
// reflected through the midpoint between its poles (its moved vector's component along u changes
// sign), landing among the other pole: "not open" ≈ "closed". Words outside the lexicon are untouched.
// The moved rows live in this object (a few hundred words), never in the shared vector table.
import { ANTONYM_POLES } from './word-vectors.antonyms.js';

/** What the axes need of a vector table (WordVectors implements it). */
export interface VectorTable {
  readonly dimensions: number;
  indexOf(word: string): number | undefined;
  row(index: number): Float32Array;
}

/** Words after a negator whose lexicon moves are reversed. */
export const NEGATION_SCOPE = 3;
const NEGATORS = ['not', 'no', 'never', 'without', 'nor'];

export class ContrastAxes {
  /** word index → its move (Σ ±s·u over the rows it belongs to), and its move when negated */
  private readonly moves = new Map<number, { plain: Float32Array; negated: Float32Array }>();
  private readonly negators: Set<number>;

  constructor(private readonly table: VectorTable, poles = ANTONYM_POLES) {
    const dims = table.dimensions;
    for (const [a, b] of poles) {
      const ia = known(table, a);
      const ib = known(table, b);
      if (!ia.length || !ib.length) continue;
      const ca = centroid(table, ia);
      const cb = centroid(table, ib);
      const u = new Float64Array(dims);
      for (let d = 0; d < dims; d++) u[d] = ca[d] - cb[d];
      const n = Math.hypot(...u);
      if (!n) continue;
      for (let d = 0; d < dims; d++) u[d] /= n;
      const s = orthogonalStep(ca, cb, u);
      for (const [ids, sign] of [[ia, 1], [ib, -1]] as const) {
        for (const i of ids) {
          const row = table.row(i);
          // the moved word's signed distance from the poles' midpoint along u, for the reflection
          let along = sign * s;
          for (let d = 0; d < dims; d++) along += (row[d] - (ca[d] + cb[d]) / 2) * u[d];
          const m = this.moves.get(i) ?? { plain: new Float32Array(dims), negated: new Float32Array(dims) };
          for (let d = 0; d < dims; d++) {
            m.plain[d] += sign * s * u[d];
            m.negated[d] += (sign * s - 2 * along) * u[d];
          }
          this.moves.set(i, m);
        }
      }
    }
    this.negators = new Set(NEGATORS.map((w) => table.indexOf(w)).filter((i): i is number => i !== undefined));
  }

  /** How many words the lexicon moves. */
  get size(): number {
    return this.moves.size;
  }

  /**
   * Add weight × (the word's vector, moved) for each word of a text to `out`; `weights[i]` is
   * the SIF weight of word index i.
   */
  accumulate(ids: readonly number[], weights: Float32Array, out: Float64Array): void {
    const dims = this.table.dimensions;
    let negatedFor = 0;
    for (const i of ids) {
      const w = weights[i];
      const row = this.table.row(i);
      const moves = this.moves.get(i);
      const move = moves && (negatedFor > 0 ? moves.negated : moves.plain);
      if (move) for (let d = 0; d < dims; d++) out[d] += w * (row[d] + move[d]);
      else for (let d = 0; d < dims; d++) out[d] += w * row[d];
      negatedFor = this.negators.has(i) ? NEGATION_SCOPE : Math.max(0, negatedFor - 1);
    }
  }
}

function known(table: VectorTable, words: readonly string[]): number[] {
  return words.map((w) => table.indexOf(w)).filter((i): i is number => i !== undefined);
}

function centroid(table: VectorTable, ids: readonly number[]): Float64Array {
  const c = new Float64Array(table.dimensions);
  for (const i of ids) {
    const r = table.row(i);
    for (let d = 0; d < c.length; d++) c[d] += r[d] / ids.length;
  }
  return c;
}

/** The smallest s ≥ 0 with cos(a + s·u, b − s·u) ≤ 0 (bisection; the cosine falls as s grows). */
function orthogonalStep(a: Float64Array, b: Float64Array, u: Float64Array): number {
  const cos = (s: number) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = 0; d < a.length; d++) {
      const x = a[d] + s * u[d];
      const y = b[d] - s * u[d];
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return dot / Math.sqrt(na * nb);
  };
  if (cos(0) <= 0) return 0;
  let lo = 0;
  let hi = 1;
  while (cos(hi) > 0) hi *= 2;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (cos(mid) > 0) lo = mid;
    else hi = mid;
  }
  return hi;
}
