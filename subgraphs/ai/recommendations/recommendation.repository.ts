// The recommender's SQL, in one file: every statement names the app partition (app_id, environment)
// explicitly. Bulk values travel as one JSON parameter (jsonb_to_recordset), so a statement's size
// does not depend on the batch.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';

const S = '"ai"';
const json = (v: unknown) => JSON.stringify(v);
/**
 * rec_models.name of the current formula (√strength vectors, sim(i → j) = dot / norm2(i)); a
 * partition whose row has another name (the cosine model before it) is rebuilt from its events.
 */
export const MODEL_ROW = 'item-item-2';

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
    return (await this.run<any>(`select version, last_event_id::text, events, refreshed_at from ${S}.rec_models where app_id = ? and environment = ? and name = ?`, [MODEL_ROW]))[0];
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
    return this.em.execute(
      `select s.u as user_id, x.item_id, x.strength from jsonb_array_elements_text(?::jsonb) as s(u)
       cross join lateral (select item_id, strength from ${S}.rec_user_items where app_id = ? and environment = ? and user_id = s.u) x`,
      [json(users), this.p.appId, this.p.environment],
      'all',
    ) as Promise<{ user_id: string; item_id: string; strength: number }[]>;
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
         select ?, ?, x.a, x.b, r.d from jsonb_to_recordset(?::jsonb) as r(i text, j text, d float8)
         cross join lateral (values (r.i, r.j), (r.j, r.i)) as x(a, b)
         on conflict (app_id, environment, item_id, other_id) do update set dot = ${S}.rec_pairs.dot + excluded.dot`,
        [json(chunk)],
      );
    }
  }

  /**
   * Recomputes the neighbour lists of `items`: per item i its k best j by dot(i, j), scored
   * sim(i → j) = dot(i, j) / norm2(i), the weighted share of i's users who also chose j. A list
   * depends only on its own item's pairs and norm, so no other list needs rescoring. Each item is
   * one index range scan of its pairs (lateral): the plan does not depend on statistics, which
   * freshly written model tables lack (a planner guessing over them took seconds per thousand pairs).
   */
  async refreshNeighbours(items: string[], k: number): Promise<void> {
    for (const chunk of chunks(items, 5_000)) {
      await this.em.execute(
        `delete from ${S}.rec_neighbors n using jsonb_array_elements_text(?::jsonb) as s(x)
          where n.app_id = ? and n.environment = ? and n.item_id = s.x`,
        [json(chunk), this.p.appId, this.p.environment],
        'run',
      );
      await this.em.execute(
        `insert into ${S}.rec_neighbors (app_id, environment, item_id, neighbor_id, score)
         select a.app_id, a.environment, a.item_id, n.other_id, n.dot / a.norm2
           from jsonb_array_elements_text(?::jsonb) as s(x)
           join ${S}.rec_items a on a.app_id = ? and a.environment = ? and a.item_id = s.x and a.norm2 > 0
           cross join lateral (select p.other_id, p.dot from ${S}.rec_pairs p
             where p.app_id = a.app_id and p.environment = a.environment and p.item_id = a.item_id and p.dot > 0
             order by p.dot desc, p.other_id limit ?) n`,
        [json(chunk), this.p.appId, this.p.environment, k],
        'run',
      );
    }
  }

  /** A model starts from nothing: the partition's derived rows go (left by an older model formula or a deleted model row). */
  async clearModel(): Promise<void> {
    for (const t of ['rec_user_items', 'rec_items', 'rec_pairs', 'rec_neighbors', 'rec_models']) await this.run(`delete from ${S}.${t} where app_id = ? and environment = ?`);
  }

  async saveModel(lastEventId: string, added: number): Promise<number> {
    const r = await this.run<{ version: number }>(
      `insert into ${S}.rec_models (app_id, environment, name, version, last_event_id, events, refreshed_at) values (?, ?, ?, 1, ?::bigint, ?, now())
       on conflict (app_id, environment, name) do update set version = ${S}.rec_models.version + 1, last_event_id = excluded.last_event_id,
         events = ${S}.rec_models.events + excluded.events, refreshed_at = now() returning version`,
      [MODEL_ROW, lastEventId, added],
    );
    return r[0].version;
  }

  // ---- reads of a request

  /** the user's items, strongest first */
  userItems(userId: string): Promise<{ item_id: string; strength: number }[]> {
    return this.run(`select item_id, strength from ${S}.rec_user_items where app_id = ? and environment = ? and user_id = ? order by strength desc, item_id`, [userId]);
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
    return this.em.execute(
      `select a.item_id, a.popularity, a.attributes from jsonb_array_elements_text(?::jsonb) as s(x)
       join ${S}.rec_items a on a.app_id = ? and a.environment = ? and a.item_id = s.x`,
      [json(ids), this.p.appId, this.p.environment],
      'all',
    ) as Promise<{ item_id: string; popularity: number; attributes: Record<string, unknown> }[]>;
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
