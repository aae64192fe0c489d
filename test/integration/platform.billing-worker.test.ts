// The renewal job as a recurring job of lib/jobs, on a scratch database migrated like the platform
// subgraph's: two processes' workers share one cycle (one pending run at a time), and each run
// records its result and schedules the next.
import pg from 'pg';
import { scratchDatabase } from '../harness/scratch-db.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ManualClock } from '../../lib/clock.js';
import { masterSecretBox } from '../../lib/crypto.js';
import { loadConfig } from '../../lib/config.js';
import { createOrm, migrate } from '../../lib/db.js';
import { listJobs, startJobWorker } from '../../lib/jobs/index.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import type { Worker } from '../../lib/subgraph.js';
import { platform } from '../../subgraphs/platform/index.js';
import { BILLING_JOB_KIND, billingJobs } from '../../subgraphs/platform/subscriptions/billing.worker.js';
import { TestPool } from '../harness/test-pool.js';

const scratch = scratchDatabase('billing_jobs');
const url = scratch.url;
let orm: MikroORM;
let pool: pg.Pool;

beforeAll(async () => {
  await scratch.create();
  orm = await createOrm({ url: url(), schema: platform.dbSchema, entities: platform.entities, migrations: platform.migrations, filters: platform.filters });
  await migrate(orm, platform.dbSchema);
  pool = new TestPool({ connectionString: url(), max: 4 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  await scratch.drop();
});

test('two workers share one renewal cycle: one pending run at a time, each run schedules the next', async () => {
  const cfg = loadConfig({ ...process.env });
  // the outbox deps a renewal needs to seal deliveries (the subgraph passes its runtime's)
  const outbox = { secrets: masterSecretBox(cfg), maxAttempts: cfg.webhookMaxAttempts };
  const deps = { cfg, orm, pubsub: createMemoryPubSub(), log: createLogger({ test: 'billing-worker' }, 'silent'), outbox };
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const workers: Worker[] = [];
  // two processes' job workers running the subscription module's kinds (as composeModules starts them)
  for (let i = 0; i < 2; i++) workers.push(await startJobWorker(deps, { schema: 'platform', kinds: await billingJobs(deps, { intervalMs: 300, clock, firstRunMs: 100 }) }));
  try {
    const deadline = Date.now() + 15_000;
    let jobs = await listJobs(pool, 'platform', { kind: BILLING_JOB_KIND });
    while (jobs.filter((j) => j.status === 'succeeded').length < 3) {
      if (Date.now() > deadline) throw new Error(`runs: ${jobs.map((j) => j.status).join(' ')}`);
      await new Promise((r) => setTimeout(r, 100));
      jobs = await listJobs(pool, 'platform', { kind: BILLING_JOB_KIND });
    }
    // never two pending at once, whichever process ran each one
    expect(jobs.filter((j) => j.status === 'queued' || j.status === 'running').length).toBeLessThanOrEqual(1);
    const done = jobs.filter((j) => j.status === 'succeeded');
    expect(done[0].result).toEqual({ subscriptions: 0, moves: {}, failed: 0 });
    // runs follow each other by about the interval
    const starts = done.map((j) => j.startedAt!.getTime()).sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(250);
  } finally {
    for (const w of workers) await w.stop();
  }
});
