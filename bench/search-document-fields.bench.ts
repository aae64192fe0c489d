// What the field-distribution triggers (Migration20261201030000_document_fields) cost a batch write:
// the task's upsert statement (documents/document.store.ts) of 20 batches of 1,000
// Debian packages into a scratch database, without the triggers and then with them (a second index,
// so both only insert), and then replacing the same documents (the old bodies' fields are read too).
// Prints the median and max per batch. Run: DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-document-fields.bench.ts
import pg from 'pg';
import { Migration20261201030000_document_fields as FieldsMigration } from '../subgraphs/search/migrations/Migration20261201030000_document_fields.js';
import { upsertDocumentsFromPayload } from '../subgraphs/search/documents/document.store.js';
import { loadDebian } from './search-corpus.js';

const BATCHES = 20;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = `bench_document_fields_${process.pid}`;
const docs = loadDebian().slice(0, BATCHES * 1000);
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${db}`);
// one connection, so every batch runs as the task's statement would
const c = new pg.Pool({ connectionString: base.replace(/\/[^/?]*(\?.*)?$/, `/${db}`), max: 1 });

let task = 0;
async function batches(label: string, indexId: string): Promise<void> {
  const ms: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const batch = docs.slice(b * 1000, (b + 1) * 1000);
    await c.query('insert into search.task_payloads (task_id, body) values ($1, $2)', [++task, JSON.stringify({ documents: batch })]);
    const t0 = performance.now();
    await upsertDocumentsFromPayload(c, indexId, task, new Map(batch.map((d, i) => [String(d.id), i])));
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
