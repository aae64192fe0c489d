// One sorted dictionary over the segments' dictionaries (their union), so a query word's typo and
// prefix walk (typo.ts) runs once per search instead of once per segment: at 1,000,000 documents in
// 10 segments the per-segment walks were about a third of a search's CPU. Each run of union terms the
// walk matches is then found in a segment's own dictionary by two binary searches (both are sorted,
// so a run of the union is a run there too). Whether a term matches a word depends only on the term,
// so a superset of a segment's dictionary matches exactly what its own would.
// Segments are immutable, so the union changes only when segments come or go, and the engine brings
// it up to date right there (engine.ts `segmentsChanged`: after a batch, a merge, a re-index, a
// restore), never inside a search, which only reads it (`view` then finds nothing left to merge):
//  - built once an engine has two segments or more (or none of its segments is in it any more), by
//    merging their dictionaries;
//  - the newest small segments (a few batches) are walked alone rather than merged in after every
//    batch; past ALONE_MAX of them, or once they hold more than an eighth of the union's terms (a
//    compaction's merged segment), they are merged in: their terms are looked up in the union
//    (mergeInto), which is copied with the new ones only when there are any;
//  - terms of segments that are gone stay, harmless; once the union holds more terms than all the
//    segments' dictionaries together, it is rebuilt from the segments, so it never outgrows them.
// A snapshot holds the union (its terms, the keys of the segments it covers: toData), so a restore
// takes it as it is (adopt) instead of merging the segments' dictionaries again.
// A segment in the union holds the union's strings, not copies of its own (share): one string per
// word for the whole engine.
import type { Segment } from './segment.js';
import { lowerBound } from './typo.js';

/** newest segments walked alone before they are merged into the union */
const ALONE_MAX = 4;

export interface DictionaryView {
  /** the union's sorted terms (empty when every segment is walked alone) */
  terms: readonly string[];
  /** is this segment left out of the union (its own dictionary is walked)? */
  alone(segment: Segment): boolean;
}

/** The union as a snapshot holds it: its terms joined by '\n' (terms hold no newline), the keys of the segments it covers. */
export interface TermUnionData {
  terms: string;
  segments: string[];
}

/** No union: every segment's own dictionary is walked. */
export const ALL_ALONE: DictionaryView = { terms: [], alone: () => true };

export class TermUnion {
  private terms: readonly string[] = [];
  private members = new WeakSet<Segment>();
  /** terms that are strings of their own (taken from a snapshot), not the segments' */
  private own = 0;

  /**
   * The union covering `segments` (extended or rebuilt first when too many are left out). The engine
   * calls it when its segments change, so a search's call only reads.
   */
  view(segments: readonly Segment[]): DictionaryView {
    if (segments.length < 2) return ALL_ALONE;
    let alone = segments.filter((s) => !this.members.has(s));
    if (this.stale(segments, alone)) {
      // one segment joining (a tail merge's, a compaction's: the segments that last) is walked by
      // mergeInto itself, which shares its terms as it goes (see share); several joining at once are
      // mostly a few batches' segments that a tail merge soon replaces (their merge is shared when it
      // joins), so sharing them too would cost a second walk for little
      let terms = mergeInto(this.terms, alone.length === 1 ? alone[0].terms : unionOf(alone.map((s) => s.terms)));
      if (terms.length > segments.reduce((n, s) => n + s.terms.length, 0)) {
        terms = unionOf(segments.map((s) => s.terms));
        this.own = 0;
        for (const s of segments) share(s.terms, terms);
      }
      this.terms = terms;
      this.members = new WeakSet(segments);
      alone = [];
    }
    const left = new Set(alone);
    return { terms: this.terms, alone: (s) => left.has(s) };
  }

  /** The union for a snapshot of `segments` (undefined while there is none: fewer than two segments). */
  toData(segments: readonly Segment[]): TermUnionData | undefined {
    const members = segments.filter((s) => this.members.has(s));
    if (segments.length < 2 || !members.length) return undefined;
    return { terms: this.terms.join('\n'), segments: members.map((s) => s.key) };
  }

  /**
   * Take a snapshot's union as this one, covering those of `segments` whose keys it names; nothing
   * changes when it names a segment that is not there (view then builds the union anew).
   */
  adopt(d: TermUnionData | undefined, segments: readonly Segment[]): boolean {
    if (!d || typeof d.terms !== 'string' || !Array.isArray(d.segments) || !d.segments.length) return false;
    const byKey = new Map(segments.map((s) => [s.key, s]));
    const members = d.segments.map((k) => byKey.get(k));
    if (members.some((m) => !m)) return false;
    this.terms = d.terms ? d.terms.split('\n') : [];
    this.own = this.terms.length;
    for (const m of members as Segment[]) share(m.terms, this.terms);
    this.members = new WeakSet(members as Segment[]);
    return true;
  }

  /** Would `view(segments)` merge first? (false once the engine has brought the union up to date) */
  outdated(segments: readonly Segment[]): boolean {
    return segments.length >= 2 && this.stale(segments, segments.filter((s) => !this.members.has(s)));
  }

  private stale(segments: readonly Segment[], alone: readonly Segment[]): boolean {
    const aloneTerms = alone.reduce((n, s) => n + s.terms.length, 0);
    return alone.length > ALONE_MAX || aloneTerms * 8 > this.terms.length || alone.length === segments.length;
  }

  /**
   * bytes held: one reference per term (the strings are the segments', counted there), and the strings
   * of its own at `stringBytes` each (memory.ts's estimate of a short string)
   */
  bytes(stringBytes: number): number {
    return this.terms.length * 8 + this.own * stringBytes;
  }
}

/**
 * Point a segment's terms at the union's strings: a segment built from a batch holds its own copy of
 * each word it tokenised, so the segments of 300,000 Debian documents (75 before compaction, 6 after)
 * held ~1 million strings for ~90,000 words: the engine's heap was 64 MiB before compaction and 24
 * after, 29 and 18 with the strings shared. Each term is replaced by the equal string of the union
 * (both lists sorted: a galloping walk), which changes no value: the segment stays immutable in
 * everything a reader can see.
 */
function share(terms: string[], union: readonly string[]): void {
  let i = 0;
  for (let j = 0; j < terms.length; j++) {
    i = seek(union, i, terms[j]);
    if (i < union.length && union[i] === terms[j]) terms[j] = union[i];
  }
}

/** The sorted union of sorted lists of unique strings, each string once (pairwise merges, O(n log k)). */
export function unionOf(lists: readonly (readonly string[])[]): string[] {
  let level = lists.filter((l) => l.length > 0);
  if (level.length === 0) return [];
  if (level.length === 1) return level[0].slice();
  while (level.length > 1) {
    const next: (readonly string[])[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? mergeTwo(level[i], level[i + 1]) : level[i]);
    level = next;
  }
  return level[0] as string[];
}

/**
 * The sorted union of `a` (the large union) and `b` (a few segments' terms), `a` itself when it
 * holds every term of `b` already: most terms of a new batch are known ones, so each term of `b` is
 * found by galloping from where the previous one was, and `a` is copied only when something is new.
 * Each term of `b` that `a` holds is replaced by `a`'s string (see share), in the same walk.
 */
export function mergeInto(a: readonly string[], b: string[]): readonly string[] {
  let i = 0;
  let j = 0;
  for (; j < b.length; j++) {
    i = seek(a, i, b[j]);
    if (i === a.length || a[i] !== b[j]) break;
    b[j] = a[i];
  }
  if (j === b.length) return a;
  const out: string[] = [];
  i = 0;
  for (j = 0; j < b.length; j++) {
    const y = b[j];
    const at = seek(a, i, y);
    while (i < at) out.push(a[i++]);
    if (i < a.length && a[i] === y) {
      b[j] = a[i];
      out.push(a[i++]);
    } else out.push(y);
  }
  while (i < a.length) out.push(a[i++]);
  return out;
}

/** The first index from `from` on where `a[index] >= term` (a.length when none): galloping, then binary search. */
function seek(a: readonly string[], from: number, term: string): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < a.length && a[hi] < term) {
    lo = hi + 1;
    hi = lo + step;
    step *= 2;
  }
  return lowerBound(a, term, lo, Math.min(hi, a.length));
}

function mergeTwo(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x < y) {
      out.push(x);
      i++;
    } else if (y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}
