// The in-memory product engines of this process, one per app partition, derived from the
// product_search_documents rows: built from every row on first use, then brought up to date before
// each search by reading only the rows past the last applied seq (one indexed statement). Any
// process serving searches thus sees every change the indexing job wrote, whichever process ran it.
// Reading by seq is safe because one partition's indexing jobs share a queue key and so commit one
// at a time, in seq order: no row with a lower seq can appear after a higher one was read.
//
// Memory budget (CATALOG_SEARCH_MEMORY_BUDGET_MB, 256): each engine's size is the search engine's own
// estimate (memoryBytes); while the engines together exceed the budget the least recently searched
// partitions are unloaded (never the one just used, nor one catching up), as the search service does.
// An unloaded partition's next search builds its engine again from its rows.
import type { EntityManager } from '@mikro-orm/postgresql';
import { envInt } from '../../../lib/config.js';
import { engineFactory, type Engine } from '../../../lib/search-engine/index.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { documentsAfter } from './search.repository.js';
import { PRODUCT_INDEX_SETTINGS } from './search.rules.js';

interface Entry {
  engine: Engine;
  seq: bigint;
  /** serialises catch-ups of one partition */
  chain: Promise<unknown>;
  /** estimated bytes (the engine's memoryBytes after its last change) */
  bytes: number;
  /** catch-ups running or waiting (an engine catching up is not unloaded) */
  busy: number;
}

const BATCH = 5000;

/** Keys to unload, least recently used first, until `total` fits `budget`; `keep` and busy entries stay. */
export function toEvict(entries: Iterable<[string, { bytes: number; busy: number }]>, budget: number, keep: string): string[] {
  const list = [...entries];
  let total = list.reduce((n, [, e]) => n + e.bytes, 0);
  const out: string[] = [];
  for (const [key, e] of list) {
    if (total <= budget) break;
    if (key === keep || e.busy > 0) continue;
    out.push(key);
    total -= e.bytes;
  }
  return out;
}

export class ProductEngines {
  /** in least-recently-used order: engineFor moves a partition to the end */
  private entries = new Map<string, Entry>();
  private unloads = 0;

  constructor(private budgetBytes = envInt(process.env, 'CATALOG_SEARCH_MEMORY_BUDGET_MB', 256) * 1024 * 1024) {}

  /** The partition's engine, caught up with every committed document. */
  async engineFor(em: EntityManager, part: AppPartition): Promise<Engine> {
    const key = `${part.appId}:${part.environment}`;
    let e = this.entries.get(key);
    if (e) this.entries.delete(key);
    else e = { engine: engineFactory.create(PRODUCT_INDEX_SETTINGS), seq: 0n, chain: Promise.resolve(), bytes: 0, busy: 0 };
    this.entries.set(key, e);
    const entry = e;
    entry.busy++;
    const run = entry.chain.then(() => this.catchUp(em, part, entry));
    entry.chain = run.catch(() => undefined);
    try {
      if ((await run) > 0) entry.bytes = entry.engine.memoryBytes();
    } finally {
      entry.busy--;
    }
    for (const k of toEvict(this.entries, this.budgetBytes, key)) {
      this.entries.delete(k);
      this.unloads++;
    }
    return entry.engine;
  }

  /** Loaded partitions, their estimated bytes and the unloads so far (metrics, tests). */
  stats(): { loaded: number; bytes: number; budgetBytes: number; unloads: number } {
    let bytes = 0;
    for (const e of this.entries.values()) bytes += e.bytes;
    return { loaded: this.entries.size, bytes, budgetBytes: this.budgetBytes, unloads: this.unloads };
  }

  /** Rows applied (0: the engine was current). */
  private async catchUp(em: EntityManager, part: AppPartition, e: Entry): Promise<number> {
    let applied = 0;
    for (;;) {
      const rows = await documentsAfter(em, part, e.seq, BATCH);
      if (!rows.length) return applied;
      applied += rows.length;
      const live = rows.filter((r) => r.doc).map((r) => r.doc!);
      const gone = rows.filter((r) => !r.doc).map((r) => r.product_id);
      if (gone.length) e.engine.deleteDocuments(gone);
      if (live.length) e.engine.addDocuments(live, 'id');
      e.seq = BigInt(rows[rows.length - 1].seq_text);
      if (rows.length < BATCH) return applied;
    }
  }
}

/** One set of engines per process (they are derived data, like the search service's engines). */
export const productEngines = new ProductEngines();
