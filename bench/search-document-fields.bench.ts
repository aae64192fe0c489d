// What the field-distribution triggers (Migration20261201030000_document_fields) cost a batch write:
// the task's upsert statement (documents/document.store.ts, as written there) of 20 batches of 1,000
// Debian packages into a scratch database, without the triggers and then with them (a second index,
// so both only insert), and then replacing the same documents (the old bodies' fields are read too).
// Prints the median and max per batch. Run: DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-document-fields.bench.ts
import pg from 'pg';
import { Migration20261201030000_document_fields as FieldsMigration } from '../subgraphs/search/migrations/Migration20261201030000_document_fields.js';
import { loadDebian } from './search-corpus.js';

const BATCHES = 20;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = `bench_document_fields_${process.pid}`;
const docs = loadDebian().slice(0, BATCHES * 1000);
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${db}`);
const c = new pg.Client({ connectionString: base.replace(/\/[^/?]*(\?.*)?$/, `/${db}`) });
await c.connect();

const UPSERT = `with p as materialized (select (body::jsonb) -> 'documents' as docs from search.task_payloads where task_id = $2),
  up as (insert into search.documents (index_id, doc_id, body, task_id, pos, deleted)
    select $1, u.i, p.docs -> u.k, $2, $2::bigint * 100000 + u.n - 1, false from p, unnest($3::text[], $4::int[]) with ordinality as u(i, k, n)
    on conflict (index_id, doc_id) do update set body = excluded.body, task_id = excluded.task_id, deleted = false,
      pos = case when documents.deleted then excluded.pos else documents.pos end
    returning pos)
  select count(*) from up`;

let task = 0;
async function batches(label: string, indexId: string): Promise<void> {
  const ms: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const batch = docs.slice(b * 1000, (b + 1) * 1000);
    await c.query('insert into search.task_payloads (task_id, body) values ($1, $2)', [++task, JSON.stringify({ documents: batch })]);
    const t0 = performance.now();
    await c.query(UPSERT, [indexId, task, batch.map((d) => String(d.id)), batch.map((_, i) => i)]);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(44)} median ${ms[ms.length >> 1].toFixed(1)} ms  max ${ms[ms.length - 1].toFixed(1)} ms per 1,000-document batch`);
}

try {
  await c.query(`create schema search;
    create table search.documents (index_id varchar(32) not null, doc_id varchar(511) collate "C" not null, body jsonb, task_id bigint not null, pos bigint not null, deleted boolean not null default false, primary key (index_id, doc_id));
    create table search.task_payloads (task_id bigint primary key, body text not null)`);
  await batches('insert, no triggers', 'plain');
  await batches('replace, no triggers', 'plain');
  const m = new FieldsMigration(null as never, null as never);
  const sql: string[] = [];
  m.addSql = (s: unknown) => void sql.push(String(s));
  await m.up();
  for (const s of sql) await c.query(s);
  await batches('insert, field-distribution triggers', 'counted');
  await batches('replace, field-distribution triggers', 'counted');
  const r = await c.query(`select count(*)::int as fields, max(documents)::int as most from search.document_fields where index_id = 'counted'`);
  console.log(`document_fields: ${r.rows[0].fields} fields, the most common held by ${r.rows[0].most} documents`);
} finally {
  await c.end();
  await admin.query(`drop database ${db}`);
  await admin.end();
}
