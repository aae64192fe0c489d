// Request pools through PgBouncer in transaction mode (docs/deploy.md, "Connection pooling"): a
// server connection is lent per transaction, so nothing may rely on session state there. LISTEN goes
// to DATABASE_DIRECT_URL (a job enqueued through the pooler wakes the worker at once, not at its next
// poll), the search path's named prepared statement is off through a pooler (named statements fail
// there: shown), and `npm run migrate` works through the pooler with its advisory lock on the direct
// URL. Needs Debian's pgbouncer (installed by .ci/run when missing); skipped, saying so, without it.
import { existsSync, mkdirSync, chmodSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import pg from 'pg';
import { ROOT, spawnScript } from '../harness/spawn.js';
import { scratchDatabase } from '../harness/scratch-db.js';
import { PGBOUNCER, startPgBouncer } from '../harness/pgbouncer.js';
import { createLogger } from '../../lib/logger.js';
import { enqueueJob, JobWorker, jobsTableDdl } from '../../lib/jobs/index.js';
import { createPool, onePrepared } from '../../subgraphs/search/db.js';

const PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 930;
const db = scratchDatabase('pgbouncer');
const log = createLogger({}, 'silent');
const dir = resolve(ROOT, '.data', `pgbouncer-${process.pid}`);
let bouncer: ChildProcess | undefined;
const pooled = () => {
  const u = new URL(db.url());
  u.hostname = '127.0.0.1';
  u.port = String(PORT);
  return u.toString();
};
const have = existsSync(PGBOUNCER);
if (!have) console.log(`pgbouncer.test: ${PGBOUNCER} is not installed (Debian package pgbouncer): skipped`);
const maybe = have ? describe : describe.skip;

maybe('through PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    await db.create();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    bouncer = startPgBouncer(dir, db.url(), { port: PORT, poolSize: 2, maxClients: 200 });
    for (let i = 0; i < 100; i++) {
      if (await new Promise<boolean>((r) => connect(PORT, '127.0.0.1').once('connect', function (this: any) { this.destroy(); r(true); }).once('error', () => r(false)))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    bouncer?.kill('SIGTERM');
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('npm run migrate through the pooler, its advisory lock on DATABASE_DIRECT_URL', async () => {
    const child = spawnScript('scripts/migrate.ts', { DATABASE_URL: pooled(), DATABASE_DIRECT_URL: db.url() }, 'pgbouncer-migrate');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  }, 180_000);

  test('a job enqueued through the pooler wakes a worker listening on the direct URL at once', async () => {
    const schema = 'bouncer_jobs';
    const direct = new pg.Client({ connectionString: db.url() });
    await direct.connect();
    await direct.query(`create schema if not exists ${schema}`);
    for (const sql of jobsTableDdl(schema)) await direct.query(sql);
    await direct.end();
    let handledAt = 0;
    const worker = new JobWorker({
      schema,
      kinds: [{ kind: 'bouncer.ping', handle: async () => void (handledAt = Date.now()) }],
      dbUrl: pooled(),
      listenUrl: db.url(),
      log,
      pollMs: 60_000, // only a NOTIFY can wake it within the test
    });
    await worker.start();
    const pool = new pg.Pool({ connectionString: pooled(), max: 2 });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const enqueuedAt = Date.now();
      await enqueueJob(pool, schema, { kind: 'bouncer.ping', payload: {} });
      for (let i = 0; i < 50 && !handledAt; i++) await new Promise((r) => setTimeout(r, 100));
      expect(handledAt).toBeGreaterThan(0);
      expect(handledAt - enqueuedAt).toBeLessThan(5000);
    } finally {
      await worker.stop();
      await pool.end();
    }
  }, 60_000);

  test('the search path without named statements answers every time; named ones break on a pooler', async () => {
    const pool = createPool(pooled(), log, 6);
    try {
      const sql = 'select $1::int as n';
      const plain = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => onePrepared<{ n: number }>(pool, 'bouncer.n', sql, [i], false)));
      expect(plain.filter((r) => r.status === 'rejected')).toEqual([]);
      const named = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => onePrepared<{ n: number }>(pool, 'bouncer.n', sql, [i], true)));
      const failed = named.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      console.log(`named prepared statement through PgBouncer (transaction mode): ${failed.length} of 60 failed (${failed[0]?.reason?.message ?? 'none'})`);
      expect(failed.length).toBeGreaterThan(0);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
