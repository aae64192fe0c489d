// The partitions' vectors kept in the catalog process between visual searches, so a search reads
// them from memory instead of decoding every row from PostgreSQL (≈ 2 s for 10,000 rows under load).
// Each search first asks the database for the partition's version (partitionVersion: count and
// newest row, one aggregate statement) and reloads on any difference, so a process never answers
// from stale vectors, and several processes (START_PROCESSES=split, replicas) each stay right on
// their own. Which products are active is read fresh per search (not cached). Memory is bounded:
// least recently used partitions leave first once the budget is passed.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { partitionVectors, partitionVersion } from './embedding.repository.js';
import type { IndexedVector } from './scan.calc.js';

interface Entry {
  version: string;
  rows: IndexedVector[];
  bytes: number;
}

/** Bytes of vectors one catalog process keeps (≈ 50,000 rows of 1344 floats). */
export const VECTOR_CACHE_BYTES = 256 * 1024 * 1024;

export class PartitionVectors {
  private readonly entries = new Map<string, Entry>(); // in use order: the first is the least recent
  private readonly loading = new Map<string, Promise<Entry>>();
  private bytes = 0;

  constructor(private readonly maxBytes = VECTOR_CACHE_BYTES) {}

  /** The partition's vectors of `model` as they are in the database now. */
  async get(em: EntityManager, part: AppPartition, model: string): Promise<IndexedVector[]> {
    const key = `${part.appId}\u0000${part.environment}\u0000${model}`;
    const version = await partitionVersion(em, part, model);
    const hit = this.entries.get(key);
    if (hit?.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.rows;
    }
    // searches of one partition that find it changed at the same moment share one load
    const flight = `${key}\u0000${version}`;
    let load = this.loading.get(flight);
    if (!load) {
      load = partitionVectors(em, part, model).then((rows) => ({ version, rows, bytes: rows.reduce((n, r) => n + r.vector.byteLength, 0) }));
      this.loading.set(flight, load);
      void load.finally(() => this.loading.delete(flight)).catch(() => undefined);
    }
    const entry = await load;
    this.keep(key, entry);
    return entry.rows;
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
  stats(): { partitions: number; bytes: number } {
    return { partitions: this.entries.size, bytes: this.bytes };
  }
}
