// The recommender's SQL, in one file: every statement names the app partition (app_id, environment)
// explicitly. Bulk values travel as one JSON parameter (jsonb_to_recordset), so a statement's size
// does not depend on the batch.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';

const S = '"ai"';
const json = (v: unknown) => JSON.stringify(v);

export interface EventRow {
  id: string;
  user_id: string;
  item_id: string;
  weight: number;
  occurred_at: Date;
  metadata: Record<string, unknown> | null;
}

export class RecRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly p: AppPartition,
  ) {}

  private run<R = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.em.execute(sql, [this.p.appId, this.p.environment, ...params], 'all') as Promise<R[]>;
  }

  async model(): Promise<{ version: number; last_event_id: string; events: number; refreshed_at: Date } | undefined> {
    return (await this.run<any>(`select version, last_event_id::text, events, refreshed_at from ${S}.rec_models where app_id = ? and environment = ? and name = 'item-item'`))[0];
  }

  /**
   * The partition's events after `lastId`, oldest first. `order by e.id` names the bigint column: a
   * bare `order by id` sorts by the output column `id::text` (an output name wins over an input
   * column), i.e. lexically ("10000" before "2"), and the batch then skipped events below its
   * watermark.
   */
  eventsAfter(lastId: string, limit: number): Promise<EventRow[]> {
    return this.run(
      `select e.id::text as id, e.user_id, e.item_id, e.weight, e.occurred_at, e.metadata from ${S}.rec_events e
        where e.app_id = ? and e.environment = ? and e.id > ?::bigint order by e.id limit ?`,
      [lastId, limit],
    );
  }

  /**
   * Serialises the partition's model refreshes (transaction-scoped advisory lock, held from reading
   * the watermark to saving the next): two runs of the job (a lease that lapsed, a second worker)
   * never build on the same watermark.
   */
  async lockModel(): Promise<void> {
    await this.lock('model');
  }

  /**
   * Serialises the partition's event writers from drawing the event's id to commit, so a
   * partition's events commit in id order and a watermark never passes an event not yet committed
   * (it would never be read). Refreshes do not take it: recording waits only for other recordings.
   */
  async lockEvents(): Promise<void> {
    await this.lock('events');
  }

  private async lock(what: 'model' | 'events'): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`ai.recs.${what}:${this.p.appId}:${this.p.environment}`], 'all');
  }

  async strengths(users: string[]): Promise<{ user_id: string; item_id: string; strength: number }[]> {
    return this.run(`select user_id, item_id, strength from ${S}.rec_user_items where app_id = ? and environment = ? and user_id = any(array(select jsonb_array_elements_text(?::jsonb)))`, [json(users)]);
  }

  async saveStrengths(rows: { u: string; i: string; s: number; t: string }[]): Promise<void> {
    for (const chunk of chunks(rows, 20_000)) {
      await this.run(
        `insert into ${S}.rec_user_items (app_id, environment, user_id, item_id, strength, last_at)
         select ?, ?, r.u, r.i, r.s, r.t from jsonb_to_recordset(?::jsonb) as r(u text, i text, s float8, t timestamptz)
         on conflict (app_id, environment, user_id, item_id) do update set strength = excluded.strength, last_at = greatest(${S}.rec_user_items.last_at, excluded.last_at)`,
        [json(chunk)],
      );
    }
  }

  async addItems(rows: { i: string; n: number; p: number; e: number; a: Record<string, unknown> }[]): Promise<void> {
    for (const chunk of chunks(rows, 20_000)) {
      await this.run(
        `insert into ${S}.rec_items (app_id, environment, item_id, norm2, popularity, events, attributes)
         select ?, ?, r.i, r.n, r.p, r.e, r.a from jsonb_to_recordset(?::jsonb) as r(i text, n float8, p float8, e int, a jsonb)
         on conflict (app_id, environment, item_id) do update set norm2 = ${S}.rec_items.norm2 + excluded.norm2,
           popularity = ${S}.rec_items.popularity + excluded.popularity, events = ${S}.rec_items.events + excluded.events,
           attributes = ${S}.rec_items.attributes || excluded.attributes`,
        [json(chunk)],
      );
    }
  }

  /** adds each delta to both directions of its pair */
  async addPairs(rows: { i: string; j: string; d: number }[]): Promise<void> {
    for (const chunk of chunks(rows, 10_000)) {
      await this.run(
        `insert into ${S}.rec_pairs (app_id, environment, item_id, other_id, dot)
         select ?, ?, x.a, x.b, x.d from (
           select r.i as a, r.j as b, r.d from jsonb_to_recordset(?::jsonb) as r(i text, j text, d float8)
           union all select r.j, r.i, r.d from jsonb_to_recordset(?::jsonb) as r(i text, j text, d float8)) x
         on conflict (app_id, environment, item_id, other_id) do update set dot = ${S}.rec_pairs.dot + excluded.dot`,
        [json(chunk), json(chunk)],
      );
    }
  }

  /** recomputes the top-k neighbours of `items`, and the scores others hold for `renormed` items */
  async refreshNeighbours(items: string[], renormed: string[], k: number): Promise<void> {
    // the model tables change within this transaction before autovacuum has statistics for them: the
    // planner then nests loops over rec_items for every pair (seconds per thousand pairs); hash joins
    // are right for these set-wide statements
    await this.em.execute('set local enable_nestloop = off', [], 'run');
    for (const chunk of chunks(items, 2_000)) {
      await this.run(`delete from ${S}.rec_neighbors where app_id = ? and environment = ? and item_id = any(array(select jsonb_array_elements_text(?::jsonb)))`, [json(chunk)]);
      await this.run(
        `insert into ${S}.rec_neighbors (app_id, environment, item_id, neighbor_id, score)
         select ?, ?, item_id, other_id, score from (
           select p.item_id, p.other_id, p.dot / sqrt(a.norm2 * b.norm2) as score,
                  row_number() over (partition by p.item_id order by p.dot / sqrt(a.norm2 * b.norm2) desc, p.other_id) as rn
           from ${S}.rec_pairs p
           join ${S}.rec_items a on a.app_id = p.app_id and a.environment = p.environment and a.item_id = p.item_id
           join ${S}.rec_items b on b.app_id = p.app_id and b.environment = p.environment and b.item_id = p.other_id
           where p.app_id = ? and p.environment = ? and p.item_id = any(array(select jsonb_array_elements_text(?::jsonb))) and p.dot > 0 and a.norm2 > 0 and b.norm2 > 0) t
         where rn <= ?`,
        [this.p.appId, this.p.environment, json(chunk), k],
      );
    }
    if (renormed.length) {
      await this.run(
      `update ${S}.rec_neighbors n set score = p.dot / sqrt(a.norm2 * b.norm2)
       from ${S}.rec_pairs p, ${S}.rec_items a, ${S}.rec_items b
       where n.app_id = ? and n.environment = ? and n.neighbor_id = any(array(select jsonb_array_elements_text(?::jsonb)))
         and not n.item_id = any(array(select jsonb_array_elements_text(?::jsonb)))
         and p.app_id = n.app_id and p.environment = n.environment and p.item_id = n.item_id and p.other_id = n.neighbor_id
         and a.app_id = n.app_id and a.environment = n.environment and a.item_id = n.item_id
         and b.app_id = n.app_id and b.environment = n.environment and b.item_id = n.neighbor_id`,
        [json(renormed), json(items)],
      );
    }
    await this.em.execute('set local enable_nestloop = on', [], 'run');
  }

  async saveModel(lastEventId: string, added: number): Promise<number> {
    const r = await this.run<{ version: number }>(
      `insert into ${S}.rec_models (app_id, environment, name, version, last_event_id, events, refreshed_at) values (?, ?, 'item-item', 1, ?::bigint, ?, now())
       on conflict (app_id, environment, name) do update set version = ${S}.rec_models.version + 1, last_event_id = excluded.last_event_id,
         events = ${S}.rec_models.events + excluded.events, refreshed_at = now() returning version`,
      [lastEventId, added],
    );
    return r[0].version;
  }

  // ---- reads of a request

  userItems(userId: string, limit: number): Promise<{ item_id: string; strength: number }[]> {
    return this.run(`select item_id, strength from ${S}.rec_user_items where app_id = ? and environment = ? and user_id = ? order by strength desc, item_id limit ?`, [userId, limit]);
  }

  userItemIds(userId: string): Promise<{ item_id: string }[]> {
    return this.run(`select item_id from ${S}.rec_user_items where app_id = ? and environment = ? and user_id = ?`, [userId]);
  }

  /** the best `perItem` neighbours of each seed item (one index range scan per seed) */
  neighbours(items: string[], perItem: number): Promise<{ item_id: string; neighbor_id: string; score: number }[]> {
    return this.em.execute(
      `select n.item_id, n.neighbor_id, n.score from jsonb_array_elements_text(?::jsonb) as s(seed)
       cross join lateral (select item_id, neighbor_id, score from ${S}.rec_neighbors
         where app_id = ? and environment = ? and item_id = s.seed order by score desc limit ?) n`,
      [json(items), this.p.appId, this.p.environment, perItem],
      'all',
    ) as Promise<{ item_id: string; neighbor_id: string; score: number }[]>;
  }

  items(ids: string[]): Promise<{ item_id: string; popularity: number; attributes: Record<string, unknown> }[]> {
    return this.run(`select item_id, popularity, attributes from ${S}.rec_items where app_id = ? and environment = ? and item_id = any(array(select jsonb_array_elements_text(?::jsonb)))`, [json(ids)]);
  }

  popular(limit: number, filters: Record<string, unknown>): Promise<{ item_id: string; popularity: number; attributes: Record<string, unknown> }[]> {
    return this.run(
      `select item_id, popularity, attributes from ${S}.rec_items where app_id = ? and environment = ? and popularity > 0 and attributes @> ?::jsonb order by popularity desc, item_id limit ?`,
      [json(filters), limit],
    );
  }
}

function chunks<T>(a: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}
