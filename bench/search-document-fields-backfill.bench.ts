// What the field-distribution migration (Migration20261201030000_document_fields) costs an upgrade:
// its statements timed one by one against BENCH_BACKFILL_DOCS (1,000,000) stored documents, the Debian
// packages over and over under new ids, in a scratch database; the last statement counts the fields of
// every live body (the backfill), which the migration runs once, at the start that upgrades. Prints each
// statement's time, the rows it counted and the load average.
// Run: DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-document-fields-backfill.bench.ts
import { loadavg } from 'node:os';
import pg from 'pg';
import { Migration20261201030000_document_fields as FieldsMigration } from '../subgraphs/search/migrations/Migration20261201030000_document_fields.js';
import { loadDebian } from './search-corpus.js';

const N = Number(process.env.BENCH_BACKFILL_DOCS ?? 1_000_000);
const INDEXES = 10;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = `bench_fields_backfill_${process.pid}`;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${db}`);
const c = new pg.Client({ connectionString: base.replace(/\/[^/?]*(\?.*)?$/, `/${db}`) });
await c.connect();
try {
  await c.query(`create schema search;
    create table search.documents (index_id varchar(32) not null, doc_id varchar(511) collate "C" not null, body jsonb, task_id bigint not null, pos bigint not null, deleted boolean not null default false, primary key (index_id, doc_id));
    create temporary table src (n int primary key, body jsonb not null)`);
  const docs = loadDebian();
  for (let i = 0; i < docs.length; i += 5000) {
    const part = docs.slice(i, i + 5000);
    await c.query('insert into src select (row_number() over () - 1 + $2)::int, value from jsonb_array_elements($1::jsonb)', [JSON.stringify(part), i]);
  }
  let t = performance.now();
  // ten indexes; one document in fifty a tombstone (no body), as deletions leave them
  await c.query(
    `insert into search.documents (index_id, doc_id, body, task_id, pos, deleted)
     select 'idx_' || (g % ${INDEXES}), g::text, case when g % 50 = 0 then null else s.body end, 1, g, g % 50 = 0
       from generate_series(1, $1::int) g join src s on s.n = g % $2::int`,
    [N, docs.length],
  );
  await c.query('vacuum analyze search.documents');
  const size = (await c.query(`select pg_size_pretty(pg_total_relation_size('search.documents')) as s`)).rows[0].s;
  console.log(`${N.toLocaleString('en')} documents in ${INDEXES} indexes stored in ${((performance.now() - t) / 1000).toFixed(1)} s (${size})  [load ${load()}]`);
  const m = new FieldsMigration(null as never, null as never);
  const sql: string[] = [];
  m.addSql = (s: unknown) => void sql.push(String(s));
  await m.up();
  let total = 0;
  for (const s of sql) {
    t = performance.now();
    await c.query(s);
    const ms = performance.now() - t;
    total += ms;
    console.log(`${(ms / 1000).toFixed(2).padStart(7)} s  ${s.replace(/\s+/g, ' ').slice(0, 90)}`);
  }
  const r = (await c.query('select count(*)::int as rows, sum(documents)::bigint as counted from search.document_fields')).rows[0];
  console.log(`migration: ${(total / 1000).toFixed(1)} s in all; document_fields ${r.rows} rows counting ${Number(r.counted).toLocaleString('en')} (document, field) pairs  [load ${load()}]`);
} finally {
  await c.end();
  await admin.query(`drop database ${db}`);
  await admin.end();
}
