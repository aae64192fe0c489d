// Hybrid ranking: keyword and vector results merged by weighted reciprocal rank fusion (Cormack et
// al. 2009, with each list weighted by the request's semantic ratio r):
//
//   score(d) = (1 − r) / (K + rank_keyword(d)) + r / (K + rank_vector(d)),  K = 60, ranks from 1,
//
// a list that does not hold d adds nothing. Higher scores first; ties go to the better keyword rank,
// then the better vector rank. Ranks rather than raw scores, because the keyword side has no score
// (bucket sort orders by rule after rule) and cosine values are not on its scale.
//
// Depth: each list takes part with its first fusionDepth(n) = K + 2n documents for a page ending at
// n; a rank beyond the depth counts as absent. The depth is deep enough that no document left out
// of both lists could have reached the page: the top n of the heavier list (weight w ≥ ½) score at
// least w / (K + n) ≥ 1 / (K + depth), while a document below the depth in both lists would score
// less than (1 − r) / (K + depth) + r / (K + depth) = 1 / (K + depth). (A document inside one list's
// depth but beyond the other's loses that smaller share: the rule is RRF over the lists' tops.)
export const RRF_K = 60;

export function fusionDepth(n: number, cap: number): number {
  return Math.min(cap, RRF_K + 2 * n);
}

export interface Fused {
  id: number;
  score: number;
  /** 1-based ranks; 0 when the list did not hold the document */
  keywordRank: number;
  vectorRank: number;
}

export function fuse(keyword: ArrayLike<number>, vector: ArrayLike<number>, semanticRatio: number, k = RRF_K): Fused[] {
  const byId = new Map<number, Fused>();
  const wk = 1 - semanticRatio;
  const wv = semanticRatio;
  for (let i = 0; i < keyword.length; i++) {
    const id = keyword[i];
    if (!byId.has(id)) byId.set(id, { id, score: wk / (k + i + 1), keywordRank: i + 1, vectorRank: 0 });
  }
  for (let i = 0; i < vector.length; i++) {
    const id = vector[i];
    const f = byId.get(id);
    if (f) {
      if (f.vectorRank) continue;
      f.score += wv / (k + i + 1);
      f.vectorRank = i + 1;
    } else byId.set(id, { id, score: wv / (k + i + 1), keywordRank: 0, vectorRank: i + 1 });
  }
  const rankOr = (r: number) => (r === 0 ? Infinity : r);
  return [...byId.values()].sort((a, b) => b.score - a.score || rankOr(a.keywordRank) - rankOr(b.keywordRank) || rankOr(a.vectorRank) - rankOr(b.vectorRank));
}
