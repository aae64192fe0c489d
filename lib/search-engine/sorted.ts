// Binary search over an ascending numeric array (document ids, latitudes): one helper for the engine's
// typed arrays (typo.ts has its own for the sorted string dictionaries, on the typo walk's hot path).

/** The first position in [from, to) of ascending `a` holding a value >= `v` (`to` when none). */
export function lowerBound(a: ArrayLike<number>, v: number, from = 0, to = a.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
