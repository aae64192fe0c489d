// Searches are recorded without slowing them down: each search appends to an in-process buffer,
// flushed in ONE insert every SEARCH_ANALYTICS_FLUSH_MS (or at 500 rows), and before every
// analytics read of this process. A crash loses at most the last interval's searches (analytics,
// not data); click events are written synchronously.
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import { run } from '../db.js';
import { T } from '../sql.js';

export interface SearchRecord {
  appId: string;
  environment: string;
  indexId: string;
  query: string;
  hits: number | null;
  hitIds: string[] | null;
  userId: string | null;
  sessionId: string | null;
  at: Date;
}

const MAX_BUFFER = 500;
/** beyond this many unflushed rows (database down), new records are dropped rather than eat memory */
const HARD_CAP = 50_000;

/** "  Desk  LAMP " → "desk lamp": one spelling per query for counting. */
export function normaliseQuery(q: string): string {
  return q.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 1000);
}

export class AnalyticsBuffer {
  private buf: SearchRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private pool: pg.Pool, private log: Logger, private everyMs: number) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(r: SearchRecord): void {
    if (this.buf.length >= HARD_CAP) return;
    this.buf.push(r);
    if (this.buf.length >= MAX_BUFFER) void this.flush();
  }

  /** Write what is buffered (serialised: one flush at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.buf.length) return;
    const batch = this.buf;
    this.buf = [];
    const rows = batch.map((r) => ({
      a: r.appId,
      e: r.environment,
      i: r.indexId,
      q: r.query,
      h: r.hits,
      ids: r.hitIds,
      u: r.userId,
      s: r.sessionId,
      t: r.at.toISOString(),
    }));
    try {
      await run(
        this.pool,
        `insert into ${T.queries} (app_id, environment, index_id, query, hits, hit_ids, user_id, session_id, created_at)
         select a, e, i, q, h, ids, u, s, t from jsonb_to_recordset($1::jsonb)
           as x(a text, e text, i text, q text, h int, ids jsonb, u text, s text, t timestamptz)`,
        [JSON.stringify(rows)],
      );
    } catch (e) {
      this.log.warn('search analytics not recorded; retrying with the next flush', { rows: batch.length, err: e });
      if (this.buf.length + batch.length <= HARD_CAP) this.buf.unshift(...batch);
    }
  }
}
