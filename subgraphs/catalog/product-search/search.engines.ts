// The in-memory product engines of this process, one per app partition, derived from the
// product_search_documents rows: built from every row on first use, then brought up to date before
// each search by reading only the rows past the last applied seq (one indexed statement). Any
// process serving searches thus sees every change the indexing job wrote, whichever process ran it.
// Reading by seq is safe because one partition's indexing jobs share a queue key and so commit one
// at a time, in seq order: no row with a lower seq can appear after a higher one was read.
import type { EntityManager } from '@mikro-orm/postgresql';
import { engineFactory, type Engine } from '../../search/engine/index.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { PRODUCT_INDEX_SETTINGS } from './search.rules.js';

interface Entry {
  engine: Engine;
  seq: bigint;
  /** serialises catch-ups of one partition */
  chain: Promise<void>;
}

const BATCH = 5000;

export class ProductEngines {
  private entries = new Map<string, Entry>();

  /** The partition's engine, caught up with every committed document. */
  async engineFor(em: EntityManager, part: AppPartition): Promise<Engine> {
    const key = `${part.appId}:${part.environment}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { engine: engineFactory.create(PRODUCT_INDEX_SETTINGS), seq: 0n, chain: Promise.resolve() };
      this.entries.set(key, e);
    }
    const entry = e;
    const run = entry.chain.then(() => this.catchUp(em, part, entry));
    entry.chain = run.catch(() => undefined);
    await run;
    return entry.engine;
  }

  private async catchUp(em: EntityManager, part: AppPartition, e: Entry): Promise<void> {
    for (;;) {
      const rows = (await em.execute(
        // seq travels as text (a bigint); ordered by the column, not by the text alias
        `select d.product_id, d.seq::text as seq_text, d.doc from "catalog"."product_search_documents" d
          where d.app_id = ? and d.environment = ? and d.seq > ?::bigint order by d.seq limit ?`,
        [part.appId, part.environment, e.seq.toString(), BATCH],
        'all',
      )) as { product_id: string; seq_text: string; doc: Record<string, unknown> | null }[];
      if (!rows.length) return;
      const live = rows.filter((r) => r.doc).map((r) => r.doc!);
      const gone = rows.filter((r) => !r.doc).map((r) => r.product_id);
      if (gone.length) e.engine.deleteDocuments(gone);
      if (live.length) e.engine.addDocuments(live, 'id');
      e.seq = BigInt(rows[rows.length - 1].seq_text);
      if (rows.length < BATCH) return;
    }
  }
}

/** One set of engines per process (they are derived data, like the search service's engines). */
export const productEngines = new ProductEngines();
