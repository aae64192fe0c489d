// Deep pages of the unfiltered product list without walking their offset. The API pages by number
// (page[number]), so page 500 of 100 means skipping 49,900 index entries: ~20 ms of the database's
// time at 63,000 products, and most of a deep page's answer. A catalog process keeps, per partition
// and direction of the newest/oldest order (the one order with an index to seek into), the sort key
// of every STRIDE-th product; a page then seeks to the nearest kept key below its offset and skips
// fewer than STRIDE entries. The keys are trusted only at the order version they were read at
// (catalog.product_counts.order_version, moved on by the products' triggers whenever a product's
// place in the order could change): the page's own statement reads the version in the same snapshot,
// and an answer read at another version is discarded and the page read by its offset. Several
// processes each keep their own keys and stay right on their own. Memory is bounded (least recently
// used partitions leave first).
import type { AppPartition } from '../../../lib/tenant-entity.js';
/** Products between two kept keys: a page skips fewer than this many index entries. */
export const BOUND_STRIDE = 1000;
const MAX_PARTITIONS = 1000;
/** The least time between two reads of one partition's keys: under constant writes they would be stale at once. */
const REFRESH_INTERVAL_MS = 1000;

export type OrderDirection = 'asc' | 'desc';

/** A kept key at or below a page's offset: seek to it (inclusive), then skip `skip` products. */
export interface Seek {
  createdAt: string;
  id: string;
  skip: number;
  version: string;
}

interface Entry {
  version: string;
  /** the key of the product at place i * BOUND_STRIDE of the order (0-based) */
  keys: { createdAt: string; id: string }[];
  stale: boolean;
}

/** A kept key as the repository reads it (product.repository.ts `pageBoundKeys`), with the order version it holds for. */
export interface BoundKeyRow {
  created_at: string;
  id: string;
  version: string | null;
}

export class PageBounds {
  private readonly entries = new Map<string, Entry>(); // in use order: the first is the least recent
  private readonly building = new Set<string>();
  /** when each partition's keys were last asked for (bounded with the entries) */
  private readonly readAt = new Map<string, number>();

  constructor(
    private readonly maxPartitions = MAX_PARTITIONS,
    private readonly minIntervalMs = REFRESH_INTERVAL_MS,
  ) {}

  private static key(part: AppPartition, dir: OrderDirection): string {
    return `${part.appId}\u0000${part.environment}\u0000${dir}`;
  }

  /** Where a page at `offset` may seek to, or undefined (no keys yet, keys found stale, a shallow page). */
  seek(part: AppPartition, dir: OrderDirection, offset: number): Seek | undefined {
    const at = Math.floor(offset / BOUND_STRIDE);
    if (at === 0) return undefined;
    const k = PageBounds.key(part, dir);
    const e = this.entries.get(k);
    if (!e || e.stale) return undefined;
    this.entries.delete(k);
    this.entries.set(k, e);
    const bound = e.keys[Math.min(at, e.keys.length - 1)];
    const place = Math.min(at, e.keys.length - 1) * BOUND_STRIDE;
    return { createdAt: bound.createdAt, id: bound.id, skip: offset - place, version: e.version };
  }

  /** A page read at another version than its keys': they are not used again until read anew. */
  markStale(part: AppPartition, dir: OrderDirection): void {
    const e = this.entries.get(PageBounds.key(part, dir));
    if (e) e.stale = true;
  }

  /**
   * Read the partition's keys anew (one index walk of the live products, in one snapshot with the
   * version), once at a time per partition and direction and at most once per `minIntervalMs`: a
   * partition written to all the time has its deep pages walk their offset, not one walk more each.
   * Not awaited by the page that asks for it.
   */
  refresh(part: AppPartition, dir: OrderDirection, read: () => Promise<BoundKeyRow[]>): void {
    const k = PageBounds.key(part, dir);
    const now = Date.now();
    if (this.building.has(k) || now - (this.readAt.get(k) ?? -Infinity) < this.minIntervalMs) return;
    this.building.add(k);
    this.readAt.delete(k);
    this.readAt.set(k, now);
    while (this.readAt.size > this.maxPartitions * 2) this.readAt.delete(this.readAt.keys().next().value!);
    void read()
      .then((rows) => {
        if (!rows.length || rows[0].version == null) return;
        this.entries.delete(k);
        this.entries.set(k, { version: rows[0].version, keys: rows.map((r) => ({ createdAt: r.created_at, id: r.id })), stale: false });
        while (this.entries.size > this.maxPartitions) this.entries.delete(this.entries.keys().next().value!);
      })
      // a failed read leaves the pages on their offsets; the next deep page asks again
      .catch(() => undefined)
      .finally(() => this.building.delete(k));
  }
}
