// lib/jobs on a scratch database of its own (the table generated from JobEntity, as a subgraph's
// migration creates it): enqueue inside the caller's transaction, claiming, per-key order under
// concurrent enqueuers and two workers, retries with backoff, dead letters, lapsed leases, delayed
// and deduplicated jobs, progress events and graceful stop.
import pg from 'pg';
import { scratchDatabase } from '../harness/scratch-db.js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '../../lib/db.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub, type PubSub } from '../../lib/pubsub.js';
import {
  enqueueJob,
  findJob,
  JobEntity,
  JobWorker,
  jobsTableDdl,
  listJobs,
  PermanentJobError,
  retryJob,
  type JobEvent,
  type JobKind,
} from '../../lib/jobs/index.js';
import { claimJob } from '../../lib/jobs/store.js';
import { TestPool } from '../harness/test-pool.js';

const SCHEMA = 'jobs_test';
const scratch = scratchDatabase('jobs');
const url = scratch.url;
const log = createLogger({ test: 'jobs' }, 'silent');
let orm: MikroORM;
let pool: pg.Pool;
const workers: JobWorker[] = [];

function worker(kinds: JobKind[], extra: { concurrency?: number; pubsub?: PubSub; leaseMs?: number } = {}): JobWorker {
  const w = new JobWorker({ schema: SCHEMA, kinds, dbUrl: url(), pool, log, pollMs: 50, ...extra });
  workers.push(w);
  return w;
}

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 40));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await scratch.create();
  orm = await createOrm({ url: url(), schema: SCHEMA, entities: [JobEntity], migrations: [] });
  await orm.em.getConnection().execute(`create schema if not exists ${SCHEMA}`);
  for (const sql of jobsTableDdl(SCHEMA)) await orm.em.getConnection().execute(sql);
  pool = new TestPool({ connectionString: url(), max: 30 });
  pool.on('error', () => undefined); // idle connections closed when the database is dropped
});

test('the table built by jobsTableDdl is the one JobEntity declares (migrations and entity agree)', async () => {
  expect((await orm.schema.getUpdateSchemaSQL({ wrap: false, schema: SCHEMA })).trim()).toBe('');
});

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  await scratch.drop();
});

describe('enqueue', () => {
  test('commits and rolls back with the caller’s transaction (pg client and EntityManager)', async () => {
    const c = await pool.connect();
    await c.query('begin');
    const job = await enqueueJob(c, SCHEMA, { kind: 'tx.pg', payload: { n: 1 } });
    await c.query('rollback');
    c.release();
    expect(await findJob(pool, SCHEMA, job!.id)).toBeUndefined();

    await expect(
      orm.em.fork().transactional(async (em) => {
        await enqueueJob(em as EntityManager, SCHEMA, { kind: 'tx.em' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await listJobs(pool, SCHEMA, { kind: 'tx.em' })).toHaveLength(0);

    const kept = await orm.em.fork().transactional((em) => enqueueJob(em as EntityManager, SCHEMA, { kind: 'tx.em', payload: { a: 'b' } }));
    expect(await findJob(pool, SCHEMA, kept!.id)).toMatchObject({ kind: 'tx.em', status: 'queued', payload: { a: 'b' }, attempts: 0 });
  });

  test('a dedupe key admits one pending job at a time', async () => {
    const a = await enqueueJob(pool, SCHEMA, { kind: 'dedupe', dedupeKey: 'once', runAt: new Date(Date.now() + 3600_000) });
    const b = await enqueueJob(pool, SCHEMA, { kind: 'dedupe', dedupeKey: 'once' });
    expect(a).not.toBeNull();
    expect(b).toBeNull();
  });
});

describe('worker', () => {
  test('runs a job, records its result and publishes running → progress → succeeded on the kind’s topic', async () => {
    const pubsub = createMemoryPubSub();
    const events: JobEvent[] = [];
    const it = pubsub.subscribe('jobs:tenant-a');
    void (async () => {
      for await (const e of { [Symbol.asyncIterator]: () => it }) events.push(e as JobEvent);
    })();
    const kind: JobKind<{ tenant: string; n: number }> = {
      kind: 'double',
      topic: (j) => `jobs:${j.payload.tenant}`,
      async handle({ job, progress }) {
        await progress({ done: 1, of: 2 });
        return { doubled: job.payload.n * 2 };
      },
    };
    worker([kind], { pubsub }).start();
    const job = await enqueueJob(pool, SCHEMA, { kind: 'double', payload: { tenant: 'tenant-a', n: 21 } });
    const done = await until(async () => {
      const j = await findJob(pool, SCHEMA, job!.id);
      return j?.status === 'succeeded' && j;
    });
    expect(done).toMatchObject({ result: { doubled: 42 }, attempts: 1, progress: { done: 1, of: 2 }, leaseUntil: null });
    await until(async () => events.length >= 3);
    expect(events.map((e) => e.event)).toEqual(['job.running', 'job.progress', 'job.succeeded']);
    expect(events[1]).toMatchObject({ jobId: job!.id, kind: 'double', progress: { done: 1, of: 2 } });
    await it.return?.();
    await pubsub.close();
  });

  test('a failing job is retried with backoff, then dead-lettered with its kind’s onDead in the same transaction; an operator can retry it', async () => {
    const tries: number[] = [];
    let heal = false;
    const kind: JobKind = {
      kind: 'flaky',
      maxAttempts: 3,
      backoff: { baseMs: 150, maxMs: 1000 },
      async handle() {
        tries.push(Date.now());
        if (!heal) throw new Error(`boom ${tries.length}`);
      },
      async onDead(job, error, tx) {
        await enqueueJob(tx, SCHEMA, { kind: 'flaky.dead-note', payload: { of: job.id, error } });
      },
    };
    worker([kind]).start();
    const job = await enqueueJob(pool, SCHEMA, { kind: 'flaky' });
    const dead = await until(async () => {
      const j = await findJob(pool, SCHEMA, job!.id);
      return j?.status === 'dead' && j;
    });
    expect(dead).toMatchObject({ attempts: 3, lastError: 'boom 3' });
    expect(tries).toHaveLength(3);
    // ~150 ms then ~300 ms (±20%) between tries
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(110);
    expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(230);
    const notes = await listJobs(pool, SCHEMA, { kind: 'flaky.dead-note' });
    expect(notes.map((n) => n.payload)).toEqual([{ of: job!.id, error: 'boom 3' }]);
    expect((await listJobs(pool, SCHEMA, { status: 'dead' })).map((j) => j.id)).toContain(job!.id);

    heal = true;
    expect(await retryJob(pool, SCHEMA, job!.id)).toBe(true);
    await until(async () => (await findJob(pool, SCHEMA, job!.id))?.status === 'succeeded');
  });

  test('PermanentJobError dead-letters at once', async () => {
    worker([{ kind: 'hopeless', async handle() { throw new PermanentJobError('bad payload'); } }]).start();
    const job = await enqueueJob(pool, SCHEMA, { kind: 'hopeless', maxAttempts: 10 });
    const dead = await until(async () => {
      const j = await findJob(pool, SCHEMA, job!.id);
      return j?.status === 'dead' && j;
    });
    expect(dead).toMatchObject({ attempts: 1, lastError: 'bad payload' });
  });

  test('a job whose worker died (lease lapsed) is claimed again and finished by another worker', async () => {
    const job = await enqueueJob(pool, SCHEMA, { kind: 'orphan' });
    // a "worker" claims it and dies: nothing extends its lease
    const claimed = await claimJob(pool, SCHEMA, 'dead-worker', new Map([['orphan', 300]]));
    expect(claimed?.id).toBe(job!.id);
    let ran = 0;
    worker([{ kind: 'orphan', leaseMs: 300, async handle() { ran++; } }]).start();
    const done = await until(async () => {
      const j = await findJob(pool, SCHEMA, job!.id);
      return j?.status === 'succeeded' && j;
    });
    expect(ran).toBe(1);
    expect(done.attempts).toBe(2);
    expect(done.worker).not.toBe('dead-worker');
  });

  test('a heartbeat keeps a long job’s lease: no second worker takes it', async () => {
    let runs = 0;
    const kind: JobKind = { kind: 'long', leaseMs: 600, async handle() { runs++; await sleep(2000); } };
    worker([kind]).start();
    worker([kind]).start();
    const job = await enqueueJob(pool, SCHEMA, { kind: 'long' });
    await until(async () => (await findJob(pool, SCHEMA, job!.id))?.status === 'succeeded');
    expect(runs).toBe(1);
  });

  test('a delayed job is not claimed before its runAt', async () => {
    let ranAt = 0;
    worker([{ kind: 'later', async handle() { ranAt = Date.now(); } }]).start();
    const runAt = new Date(Date.now() + 800);
    const job = await enqueueJob(pool, SCHEMA, { kind: 'later', runAt });
    await until(async () => (await findJob(pool, SCHEMA, job!.id))?.status === 'succeeded');
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 50);
  });

  test('complete(tx) commits the job with the handler’s effects; a handler whose lease was taken over rolls back', async () => {
    await pool.query(`create table if not exists ${SCHEMA}.effects (job_id bigint primary key)`);
    const kind: JobKind = {
      kind: 'effect',
      async handle({ job, complete }) {
        const c = await pool.connect();
        try {
          await c.query('begin');
          await c.query(`insert into ${SCHEMA}.effects values ($1)`, [job.id]);
          // the second job's lease is taken over meanwhile (as if this worker had stalled past it)
          if ((job.payload as { stolen?: boolean }).stolen) await pool.query(`update ${SCHEMA}.jobs set worker = 'thief' where id = $1`, [job.id]);
          await complete(c, { ok: true });
          await c.query('commit');
        } catch (e) {
          await c.query('rollback');
          throw e;
        } finally {
          c.release();
        }
      },
    };
    worker([kind]).start();
    const job = await enqueueJob(pool, SCHEMA, { kind: 'effect' });
    await until(async () => (await findJob(pool, SCHEMA, job!.id))?.status === 'succeeded');
    expect((await pool.query(`select job_id from ${SCHEMA}.effects where job_id = $1`, [job!.id])).rowCount).toBe(1);

    const stolen = await enqueueJob(pool, SCHEMA, { kind: 'effect', payload: { stolen: true } });
    await until(async () => (await findJob(pool, SCHEMA, stolen!.id))?.worker === 'thief');
    await sleep(100);
    expect((await pool.query(`select job_id from ${SCHEMA}.effects where job_id = $1`, [stolen!.id])).rowCount).toBe(0);
    expect((await findJob(pool, SCHEMA, stolen!.id))?.status).toBe('running');
  });

  test('stop() lets a running handler finish and claims nothing new', async () => {
    let finished = 0;
    const w = worker([{ kind: 'slow', async handle() { await sleep(500); finished++; } }]);
    await w.start();
    const a = await enqueueJob(pool, SCHEMA, { kind: 'slow' });
    await until(async () => (await findJob(pool, SCHEMA, a!.id))?.status === 'running');
    const b = await enqueueJob(pool, SCHEMA, { kind: 'slow' });
    await w.stop();
    expect(finished).toBe(1);
    expect((await findJob(pool, SCHEMA, a!.id))?.status).toBe('succeeded');
    expect((await findJob(pool, SCHEMA, b!.id))?.status).toBe('queued');
  });
});

describe('per-key order', () => {
  test('concurrent enqueuers, two workers: jobs of one key run one at a time in acceptance order; other keys run alongside', async () => {
    const ran: { key: string; id: number; seq: number }[] = [];
    const active = new Map<string, number>();
    let overlap = 0;
    const kind: JobKind<{ seq: number }> = {
      kind: 'ordered',
      async handle({ job }) {
        const n = (active.get(job.key!) ?? 0) + 1;
        active.set(job.key!, n);
        if (n > 1) overlap++;
        await sleep(Number(job.id) % 7);
        ran.push({ key: job.key!, id: Number(job.id), seq: job.payload.seq });
        active.set(job.key!, n - 1);
      },
    };
    const w1 = worker([kind], { concurrency: 3 });
    const w2 = worker([kind], { concurrency: 3 });
    await Promise.all([w1.start(), w2.start()]);
    // Each enqueuer holds its transaction open for a while after enqueueing: commit order differs
    // from start order, and the workers are busy meanwhile.
    const N = 40;
    const committed: { key: string; id: number }[] = [];
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const key = i % 4 === 0 ? 'other' : 'hot';
        await sleep((i * 13) % 17);
        const c = await pool.connect();
        try {
          await c.query('begin');
          const job = await enqueueJob(c, SCHEMA, { kind: 'ordered', key, payload: { seq: i } });
          await sleep((i * 7) % 23);
          await c.query('commit');
          committed.push({ key, id: Number(job!.id) });
        } finally {
          c.release();
        }
      }),
    );
    await until(async () => ran.length === N);
    expect(overlap).toBe(0);
    for (const key of ['hot', 'other']) {
      const order = ran.filter((r) => r.key === key).map((r) => r.id);
      // ran in id order, and id order is commit (acceptance) order
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(committed.filter((c) => c.key === key).map((c) => c.id)).toEqual(order);
    }
    expect(w1.processed + w2.processed).toBe(N);
  });

  test('a job waiting for its retry holds back later jobs of its key; a dead one does not', async () => {
    const ran: string[] = [];
    let fails = 2;
    const kind: JobKind<{ name: string }> = {
      kind: 'ordered.retry',
      maxAttempts: 2,
      backoff: { baseMs: 200, maxMs: 200 },
      async handle({ job }) {
        if (job.payload.name === 'first' && fails-- > 0) throw new Error('not yet');
        ran.push(job.payload.name);
      },
    };
    worker([kind], { concurrency: 2 }).start();
    await enqueueJob(pool, SCHEMA, { kind: 'ordered.retry', key: 'k', payload: { name: 'first' }, maxAttempts: 3 });
    await enqueueJob(pool, SCHEMA, { kind: 'ordered.retry', key: 'k', payload: { name: 'second' } });
    await until(async () => ran.length === 2);
    expect(ran).toEqual(['first', 'second']);

    fails = 5;
    const first = await enqueueJob(pool, SCHEMA, { kind: 'ordered.retry', key: 'k2', payload: { name: 'first' } });
    await enqueueJob(pool, SCHEMA, { kind: 'ordered.retry', key: 'k2', payload: { name: 'third' } });
    await until(async () => ran.includes('third'));
    expect((await findJob(pool, SCHEMA, first!.id))?.status).toBe('dead');
  });
});
