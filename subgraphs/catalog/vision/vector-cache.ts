// The partitions' vectors kept in the catalog process between visual searches, so a search reads
// them from memory instead of decoding every row from PostgreSQL (≈ 2 s for 10,000 rows under load).
// Each search first asks the database for the partition's version (partitionVersion: count and
// newest row, one aggregate statement) and reloads on any difference, so a process never answers
// from stale vectors, and several processes (START_PROCESSES=split, replicas) each stay right on
// their own. A changed partition is refreshed, not reloaded: each image's stamp (imageStamps: its
// rows' newest created_at and count, no vector read) says which images are new, replaced or gone,
// and only the new and replaced images' vectors are read (all of them when most changed). Which
// products are active is read fresh per search (not cached). Memory is bounded: least recently used
// partitions leave first once the budget is passed.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { imageStamps, partitionVectors, partitionVersion } from './embedding.repository.js';
import { CHUNK_ROWS, chunked, type VectorChunk } from './scan.calc.js';

/** A partition's vectors as kept: chunks of rows (scan.calc.ts), and each image's stamp to refresh them by. */
interface Kept {
  chunks: VectorChunk[];
  stamps: Map<string, string>;
}

interface Entry extends Kept {
  version: string;
  bytes: number;
}

/** What a kept row costs besides its codes (its object, its view of the block and strings), roughly. */
const ROW_OVERHEAD = 240;

/** Past this share of changed images a refresh reads the whole partition (one plain statement). */
const REFRESH_SHARE = 0.5;

/** Bytes of vectors one catalog process keeps by default (≈ 170,000 rows of 1,344 8-bit components; CATALOG_VECTOR_CACHE_MB). */
export const VECTOR_CACHE_BYTES = 256 * 1024 * 1024;

export class PartitionVectors {
  private readonly entries = new Map<string, Entry>(); // in use order: the first is the least recent
  private readonly loading = new Map<string, Promise<Entry>>();
  private bytes = 0;
  /** for health and tests: whole partitions read, refreshes that read only changed images, and those images */
  private readonly counts = { loads: 0, refreshes: 0, imagesRead: 0 };

  /** `chunkRows`: rows per chunk (scan.calc.ts CHUNK_ROWS; tests take fewer) */
  constructor(
    private readonly maxBytes = VECTOR_CACHE_BYTES,
    private readonly chunkRows = CHUNK_ROWS,
  ) {}

  /** The partition's vectors of `model` as they are in the database now. */
  async get(em: EntityManager, part: AppPartition, model: string): Promise<VectorChunk[]> {
    const key = `${part.appId}\u0000${part.environment}\u0000${model}`;
    const version = await partitionVersion(em, part, model);
    const hit = this.entries.get(key);
    if (hit?.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.chunks;
    }
    // searches of one partition that find it changed at the same moment share one load
    const flight = `${key}\u0000${version}`;
    let load = this.loading.get(flight);
    if (!load) {
      load = this.read(em, part, model, hit).then((read) => ({ ...read, version, bytes: read.chunks.reduce((n, c) => n + c.block.bytes + c.rows.length * ROW_OVERHEAD, 0) }));
      this.loading.set(flight, load);
      void load.finally(() => this.loading.delete(flight)).catch(() => undefined);
    }
    const entry = await load;
    this.keep(key, entry);
    return entry.chunks;
  }

  /**
   * The partition's vectors now: `before`'s chunks where none of their images changed, the changed
   * images' rows read anew, packed with the other rows of the chunks they touched (and of small
   * chunks, so changes do not leave ever more of them).
   */
  private async read(em: EntityManager, part: AppPartition, model: string, before: Entry | undefined): Promise<Kept> {
    if (!before) return this.loadAll(em, part, model);
    const now = await imageStamps(em, part, model);
    const changed = [...now].filter(([id, stamp]) => before.stamps.get(id) !== stamp).map(([id]) => id);
    if (changed.length > now.size * REFRESH_SHARE) return this.loadAll(em, part, model);
    const fresh = changed.length ? await partitionVectors(em, part, model, changed) : { rows: [], stamps: new Map<string, string>() };
    this.counts.refreshes++;
    this.counts.imagesRead += changed.length;
    const unchanged = (id: string) => now.has(id) && now.get(id) === before.stamps.get(id);
    const stamps = new Map<string, string>();
    for (const [id, stamp] of before.stamps) if (unchanged(id)) stamps.set(id, stamp);
    for (const [id, stamp] of fresh.stamps) stamps.set(id, stamp);
    const kept: VectorChunk[] = [];
    const repack = [];
    for (const c of before.chunks) {
      if (c.rows.length >= this.chunkRows / 4 && c.rows.every((r) => unchanged(r.imageId))) kept.push(c);
      else for (const r of c.rows) if (unchanged(r.imageId)) repack.push(r);
    }
    return { chunks: kept.concat(chunked(repack.concat(fresh.rows), this.chunkRows)), stamps };
  }

  private async loadAll(em: EntityManager, part: AppPartition, model: string): Promise<Kept> {
    this.counts.loads++;
    const read = await partitionVectors(em, part, model);
    return { chunks: chunked(read.rows, this.chunkRows), stamps: read.stamps };
  }

  private keep(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    if (entry.bytes > this.maxBytes) return; // a partition larger than the budget is read every time
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  /** For health and tests: partitions and bytes held. */
  stats(): { partitions: number; bytes: number } & PartitionVectors['counts'] {
    return { partitions: this.entries.size, bytes: this.bytes, ...this.counts };
  }
}
