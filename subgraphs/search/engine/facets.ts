// Facet distribution and stats over ALL candidates (every hit the query and filter match, not only
// the page), read from the per-segment field indexes: each value's doc list is tested against the
// candidate bitset, so the cost is the number of (value, doc) pairs of the facet, not of documents.
// Values are counted under their normalised form and shown as first written; numbers as strings
// ("10"). As Meilisearch: at most `maxValuesPerFacet` (100) values, sorted alphabetically by default
// or by count (descending) on request. Stats (min, max, avg, sum) cover numeric values only; each
// (document, value) pair counts once.
import { has, type Bitset } from './bitset.js';
import type { Segment } from './segment.js';
import type { FacetStats } from './types.js';

export interface FacetOptions {
  maxValuesPerFacet: number;
  sortBy: 'alpha' | 'count';
}

export function computeFacets(
  segments: readonly Segment[],
  candidates: Bitset,
  facets: readonly string[],
  opts: FacetOptions,
): { distribution: Record<string, Record<string, number>>; stats: Record<string, FacetStats> } {
  const distribution: Record<string, Record<string, number>> = {};
  const stats: Record<string, FacetStats> = {};
  for (const attr of facets) {
    const counts = new Map<string, { display: string; count: number }>();
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    const bump = (key: string, display: string, c: number) => {
      if (c === 0) return;
      const e = counts.get(key);
      if (e) e.count += c;
      else counts.set(key, { display, count: c });
    };
    for (const seg of segments) {
      const f = seg.fields.get(attr);
      if (!f) continue;
      for (let i = 0; i < f.strValues.length; i++) {
        let c = 0;
        for (let j = f.strStart[i]; j < f.strStart[i + 1]; j++) if (has(candidates, f.strDocs[j])) c++;
        bump(f.strValues[i], f.strDisplay[i], c);
      }
      let j = 0;
      while (j < f.numValues.length) {
        const v = f.numValues[j];
        let c = 0;
        for (; j < f.numValues.length && f.numValues[j] === v; j++) if (has(candidates, f.numDocs[j])) c++;
        if (c) {
          const key = String(v);
          bump(key, key, c);
          if (v < min) min = v;
          if (v > max) max = v;
          sum += v * c;
          n += c;
        }
      }
    }
    const entries = [...counts.entries()];
    if (opts.sortBy === 'count') entries.sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
    else entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const out: Record<string, number> = {};
    for (const [, e] of entries.slice(0, opts.maxValuesPerFacet)) out[e.display] = e.count;
    distribution[attr] = out;
    if (n > 0) stats[attr] = { min, max, avg: sum / n, sum };
  }
  return { distribution, stats };
}
