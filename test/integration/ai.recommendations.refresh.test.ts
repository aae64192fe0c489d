// The recommendation model's refresh on a scratch database migrated like the ai subgraph's: the
// incremental model built batch by batch holds every event exactly once and equals the model
// computed from scratch (strengths, norms, popularity, pair dot products, neighbour scores), with
// event ids crossing digit counts (9 → 10, 99 → 100, 999 → 1000: a lexical order of ids lost the
// first batch's events, issue 11); two refreshes running at once still count each event once; an
// event writer holding the partition's event lock makes the next writer wait (ids commit in order).
import pg from 'pg';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../../lib/db.js';
import { JobEntity } from '../../lib/jobs/index.js';
import { scratchDatabase } from '../harness/scratch-db.js';
import { migrations } from '../../subgraphs/ai/migrations/index.js';
import { RecEventEntity, RecItemEntity, RecModelEntity, RecNeighborEntity, RecPairEntity, RecUserItemEntity, type RecEventType } from '../../subgraphs/ai/recommendations/recommendation.entity.js';
import { NEIGHBOURS_PER_ITEM, refreshModel } from '../../subgraphs/ai/recommendations/recommendation.job.js';
import { MODEL_ROW, RecRepository } from '../../subgraphs/ai/recommendations/recommendation.repository.js';
import { decayed, eventWeight } from '../../subgraphs/ai/recommendations/recommendation.rules.js';
import { TestPool } from '../harness/test-pool.js';

const scratch = scratchDatabase('recs_refresh');
let orm: MikroORM;
let pool: pg.Pool;

interface Ev {
  user: string;
  item: string;
  type: RecEventType;
  at: Date;
  rating?: number;
}

/** a deterministic log: `users` users, 40 items, events of every type over two months */
function eventLog(users: number, seed: number): Ev[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 4294967296;
  };
  const types: RecEventType[] = ['view', 'view', 'view', 'click', 'add_to_cart', 'purchase', 'like', 'rating'];
  const out: Ev[] = [];
  for (let u = 0; u < users; u++) {
    const taste = Math.floor(rand() * 4);
    const n = 5 + Math.floor(rand() * 20);
    for (let k = 0; k < n; k++) {
      // mostly items of the user's taste (10 per taste), some anywhere
      const item = rand() < 0.8 ? taste * 10 + Math.floor(rand() * 10) : Math.floor(rand() * 40);
      const type = types[Math.floor(rand() * types.length)];
      out.push({ user: `u${u}`, item: `i${item}`, type, at: new Date(Date.UTC(2026, 8, 1) + Math.floor(rand() * 60 * 86_400_000)), rating: type === 'rating' ? 1 + Math.floor(rand() * 5) : undefined });
    }
  }
  return out;
}

async function insert(appId: string, events: Ev[]): Promise<void> {
  await pool.query(
    `insert into ai.rec_events (app_id, environment, user_id, item_id, event_type, weight, occurred_at, metadata, created_at)
     select $1, 'live', r.u, r.i, r.t, r.w, r.at, r.m, now() from jsonb_to_recordset($2::jsonb) as r(u text, i text, t text, w float8, at timestamptz, m jsonb)`,
    [appId, JSON.stringify(events.map((e) => ({ u: e.user, i: e.item, t: e.type, w: eventWeight(e.type, e.rating), at: e.at.toISOString(), m: e.rating ? { rating: e.rating } : {} })))],
  );
}

/** the model computed from scratch, in memory */
function expected(events: Ev[]) {
  const strengths = new Map<string, Map<string, number>>();
  for (const e of events) {
    const u = strengths.get(e.user) ?? new Map<string, number>();
    u.set(e.item, (u.get(e.item) ?? 0) + decayed(eventWeight(e.type, e.rating), e.at));
    strengths.set(e.user, u);
  }
  const norm2 = new Map<string, number>();
  const popularity = new Map<string, number>();
  const dot = new Map<string, number>();
  for (const items of strengths.values()) {
    for (const [i, si] of items) {
      // the item vectors hold √strength
      norm2.set(i, (norm2.get(i) ?? 0) + si);
      popularity.set(i, (popularity.get(i) ?? 0) + si);
      for (const [j, sj] of items) if (i !== j) dot.set(`${i}|${j}`, (dot.get(`${i}|${j}`) ?? 0) + Math.sqrt(si * sj));
    }
  }
  return { strengths, norm2, popularity, dot };
}

const close = (got: number, want: number) => Math.abs(got - want) <= 1e-9 * Math.max(Math.abs(got), Math.abs(want), 1);

/** compares the stored model of `appId` with the one computed from `events`; answers the mismatches */
async function mismatches(appId: string, events: Ev[]): Promise<string[]> {
  const want = expected(events);
  const bad: string[] = [];
  const q = async (sql: string) => (await pool.query(sql, [appId])).rows;
  const model = (await q(`select last_event_id::text as last, events from ai.rec_models where app_id = $1`))[0];
  const newest = (await q(`select max(id)::text as id from ai.rec_events where app_id = $1`))[0].id;
  if (model?.last !== newest) bad.push(`watermark ${model?.last}, newest event ${newest}`);
  if (model?.events !== events.length) bad.push(`model counts ${model?.events} events of ${events.length}`);
  const ui = await q(`select user_id, item_id, strength from ai.rec_user_items where app_id = $1`);
  const wantPairs = [...want.strengths.values()].reduce((s, m) => s + m.size, 0);
  if (ui.length !== wantPairs) bad.push(`${ui.length} user-item rows of ${wantPairs}`);
  for (const r of ui) if (!close(r.strength, want.strengths.get(r.user_id)?.get(r.item_id) ?? NaN)) bad.push(`strength ${r.user_id} ${r.item_id}`);
  const items = await q(`select item_id, norm2, popularity, events from ai.rec_items where app_id = $1`);
  if (items.reduce((s, r) => s + r.events, 0) !== events.length) bad.push(`items count ${items.reduce((s, r) => s + r.events, 0)} events`);
  for (const r of items) if (!close(r.norm2, want.norm2.get(r.item_id) ?? NaN) || !close(r.popularity, want.popularity.get(r.item_id) ?? NaN)) bad.push(`item ${r.item_id}`);
  const pairs = await q(`select item_id, other_id, dot from ai.rec_pairs where app_id = $1 and dot <> 0`);
  // (a pair only rated 1 or 2 stars has a zero product: no row)
  const nonZero = [...want.dot.values()].filter((d) => d !== 0).length;
  if (pairs.length !== nonZero) bad.push(`${pairs.length} pair rows of ${nonZero}`);
  for (const r of pairs) if (!close(r.dot, want.dot.get(`${r.item_id}|${r.other_id}`) ?? NaN)) bad.push(`pair ${r.item_id} ${r.other_id}`);
  // 40 items: every neighbour list is complete (under 50), so the lists are exactly the pairs with a
  // positive dot product, scored sim(i → j) = dot / norm2(i)
  const nb = await q(`select item_id, neighbor_id, score from ai.rec_neighbors where app_id = $1`);
  if (nb.length !== [...want.dot.values()].filter((d) => d > 0).length) bad.push(`${nb.length} neighbour rows`);
  for (const r of nb) {
    const sim = (want.dot.get(`${r.item_id}|${r.neighbor_id}`) ?? NaN) / want.norm2.get(r.item_id)!;
    if (!close(r.score, sim)) bad.push(`neighbour ${r.item_id} ${r.neighbor_id} ${r.score} ≠ ${sim}`);
  }
  return bad.slice(0, 10);
}

beforeAll(async () => {
  await scratch.create();
  orm = await createOrm({ url: scratch.url(), schema: 'ai', entities: [JobEntity, RecEventEntity, RecUserItemEntity, RecItemEntity, RecPairEntity, RecNeighborEntity, RecModelEntity], migrations, poolMax: 4 });
  await migrate(orm, 'ai');
  pool = new TestPool({ connectionString: scratch.url(), max: 4 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  await scratch.drop();
});

const em = () => orm.em.fork() as EntityManager;
const part = (appId: string) => ({ appId, environment: 'live' as const });

test('built in batches across 9→10, 99→100 and 999→1000 event ids, then incrementally: every event once, equal to the model from scratch', async () => {
  expect(NEIGHBOURS_PER_ITEM).toBeGreaterThan(40);
  // the first events of the database: ids 1..n (the lexical order "1", "10", "100", "1000", … dropped some)
  const log = eventLog(110, 7);
  expect(log.length).toBeGreaterThan(1000);
  const first = log.slice(0, 1050);
  await insert('app_batches', first);
  await refreshModel(em(), part('app_batches'), { batch: 97 });
  expect(await mismatches('app_batches', first)).toEqual([]);

  // more events for known and new users: the incremental refresh equals the rebuilt model
  await insert('app_batches', log.slice(1050));
  await refreshModel(em(), part('app_batches'), { batch: 40 });
  expect(await mismatches('app_batches', log)).toEqual([]);
  const version = (await pool.query(`select version from ai.rec_models where app_id = 'app_batches'`)).rows[0].version;
  expect(version).toBe(Math.ceil(1050 / 97) + Math.ceil((log.length - 1050) / 40));
});

test('a partition whose model rows came from another formula (or lost their model row) is rebuilt from its events', async () => {
  const log = eventLog(30, 5);
  await insert('app_stale', log);
  await pool.query(`insert into ai.rec_models (app_id, environment, name, version, last_event_id, events, refreshed_at) values ('app_stale', 'live', 'item-item', 3, 1, 1, now())`);
  await pool.query(`insert into ai.rec_items (app_id, environment, item_id, norm2, popularity, events, attributes) values ('app_stale', 'live', 'i1', 99, 99, 99, '{}')`);
  await pool.query(`insert into ai.rec_pairs (app_id, environment, item_id, other_id, dot) values ('app_stale', 'live', 'i1', 'i2', 99), ('app_stale', 'live', 'i2', 'i1', 99)`);
  await refreshModel(em(), part('app_stale'), { batch: 100 });
  expect(await mismatches('app_stale', log)).toEqual([]);
  expect((await pool.query(`select name from ai.rec_models where app_id = 'app_stale'`)).rows).toEqual([{ name: MODEL_ROW }]);
});

test('two refreshes of one partition at once count every event once', async () => {
  const log = eventLog(60, 11);
  await insert('app_twice', log);
  await Promise.all([refreshModel(em(), part('app_twice'), { batch: 50 }), refreshModel(em(), part('app_twice'), { batch: 70 })]);
  expect(await mismatches('app_twice', log)).toEqual([]);
});

test('an event writer waits for the partition\'s earlier writer: ids commit in order', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let firstId = '';
  const first = em().transactional(async (tx) => {
    await new RecRepository(tx as EntityManager, part('app_order')).lockEvents();
    firstId = (await tx.execute(`insert into ai.rec_events (app_id, environment, user_id, item_id, event_type, weight, occurred_at, created_at) values ('app_order', 'live', 'a', 'x', 'view', 1, now(), now()) returning id::text as id`))[0].id;
    await held;
  });
  await new Promise((r) => setTimeout(r, 100));
  let secondId = '';
  const second = em().transactional(async (tx) => {
    await new RecRepository(tx as EntityManager, part('app_order')).lockEvents();
    secondId = (await tx.execute(`insert into ai.rec_events (app_id, environment, user_id, item_id, event_type, weight, occurred_at, created_at) values ('app_order', 'live', 'b', 'x', 'view', 1, now(), now()) returning id::text as id`))[0].id;
  });
  // another partition does not wait
  await em().transactional(async (tx) => new RecRepository(tx as EntityManager, part('app_other')).lockEvents());
  await new Promise((r) => setTimeout(r, 200));
  expect(firstId).not.toBe('');
  expect(secondId).toBe('');
  release();
  await Promise.all([first, second]);
  expect(BigInt(secondId)).toBeGreaterThan(BigInt(firstId));
});
