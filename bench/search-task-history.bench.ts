// What bounding the task history costs (task.queue.ts pruneTaskHistory, run by the search worker every
// SEARCH_TASK_PRUNE_MS): a scratch database holding one busy app partition with 1,000,000 finished
// tasks and 200 partitions of 1,000 (under the bound), pruned to the default bound of 100,000 in
// statements of 5,000 as the worker does; then the round that finds nothing, which is what every
// later round costs. Prints the pruning time, the statements' median and max, and the idle round.
// Run: DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-task-history.bench.ts
import pg from 'pg';
import { tenantSequencesDdl } from '../lib/tenant-sequence.js';
import { pruneTaskHistory } from '../subgraphs/search/tasks/task.queue.js';

const BUSY = Number(process.env.BENCH_BUSY_TASKS ?? 1_000_000);
const QUIET = 200;
const KEEP = 100_000;
const BATCH = 5000;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = `bench_task_history_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${db}`);
const pool = new pg.Pool({ connectionString: base.replace(/\/[^/?]*(\?.*)?$/, `/${db}`), max: 1 });

/** 20 pruning rounds once nothing is left to prune: their median and max, in ms. */
async function idleRounds(): Promise<{ median: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await pruneTaskHistory(pool, KEEP, BATCH);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[10]!, max: ms[19]! };
}

try {
  await pool.query('create schema search');
  for (const s of tenantSequencesDdl('search')) await pool.query(s);
  // the columns pruning reads, with the table's real keys (Migration20261122092742, Migration20261127180000)
  await pool.query(`create table search.tasks (id bigserial primary key, app_id varchar(64) not null, environment varchar(8) not null, uid bigint not null,
    index_uid varchar(400) not null, type text not null, status text not null, details jsonb not null default '{}', enqueued_at timestamptz not null default now(),
    constraint tasks_app_id_environment_uid_unique unique (app_id, environment, uid))`);
  const t0 = performance.now();
  await pool.query(`insert into search.tasks (app_id, environment, uid, index_uid, type, status, details)
    select 'busy', 'live', g, 'products', 'document_addition_or_update', case when g % 50 = 0 then 'failed' else 'succeeded' end, '{"documents_received": 1000, "documents_indexed": 1000}'
      from generate_series(1, $1) g`, [BUSY]);
  await pool.query(`insert into search.tasks (app_id, environment, uid, index_uid, type, status)
    select 'quiet' || a, 'live', g, 'products', 'settings_update', 'succeeded' from generate_series(1, $1) a, generate_series(1, 1000) g`, [QUIET]);
  await pool.query(`insert into search.tenant_sequences (id, name, app_id, environment, last_value)
    select 'task:' || app_id || ':' || environment, 'task', app_id, environment, max(uid) from search.tasks group by app_id, environment`);
  await pool.query('vacuum analyze search.tasks');
  console.log(`${BUSY.toLocaleString('en')} tasks of one partition and ${QUIET} partitions of 1,000 written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const ms: number[] = [];
  let deleted = 0;
  const started = performance.now();
  for (let n = BATCH; n === BATCH; deleted += n) {
    const t = performance.now();
    n = await pruneTaskHistory(pool, KEEP, BATCH);
    ms.push(performance.now() - t);
  }
  const total = performance.now() - started;
  ms.sort((a, b) => a - b);
  console.log(
    `pruned to ${KEEP.toLocaleString('en')} a partition: ${deleted.toLocaleString('en')} tasks in ${(total / 1000).toFixed(1)} s (${Math.round(deleted / (total / 1000)).toLocaleString('en')}/s); ` +
      `${ms.length} statements of at most ${BATCH}: median ${ms[ms.length >> 1].toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(1)} ms`,
  );
  const left = await pool.query(`select count(*) filter (where app_id = 'busy')::int as busy, count(*)::int as total from search.tasks`);
  console.log(`left: ${left.rows[0].busy} of the busy partition, ${left.rows[0].total} in all`);
  const idle = await idleRounds();
  console.log(`a round with nothing to prune, before autovacuum reaches the table: median ${idle.median.toFixed(2)} ms, max ${idle.max.toFixed(2)} ms`);
  await pool.query('vacuum search.tasks');
  const after = await idleRounds();
  console.log(`the same round after a vacuum (every later round): median ${after.median.toFixed(2)} ms, max ${after.max.toFixed(2)} ms`);
} finally {
  await pool.end();
  await admin.query(`drop database ${db}`);
  await admin.end();
}
