// The statements that create a subgraph's jobs table: what `migration:create` generates from
// JobEntity, held once here so each subgraph's migration calls this instead of carrying a copy.
// A test checks that a table built from these statements and the entity agree. They describe the
// table as first created: a later change to JobEntity gets its own exported statements and a new
// migration in each subgraph, never an edit here. enqueueJobSql is the job row insertJob (store.ts)
// writes, for a trigger that enqueues in the transaction of the rows it sees (the catalog's removal of
// deleted images' files, Migration20261130160000_product_image_files_removal).
import { jobsChannel, jobsTable } from './sql.js';

/**
 * PL/pgSQL statements that enqueue one job of `kind` with the jsonb `payload` selected `from` a
 * relation (e.g. a trigger's transition table; with `having count(*) > 0`, no job for no rows), and
 * wake the schema's workers at commit, as insertJob does.
 */
export function enqueueJobSql(schema: string, kind: string, payload: string, from: string): string {
  if (!/^[a-z][a-z0-9_.-]*$/.test(kind)) throw new Error(`jobs: bad kind ${kind}`);
  return `insert into ${jobsTable(schema)} (kind, payload, status, attempts, run_at, created_at)
    select '${kind}', ${payload}, 'queued', 0, clock_timestamp(), clock_timestamp() from ${from};
  if found then
    perform pg_notify('${jobsChannel(schema)}', '${kind}');
  end if;`;
}

export function jobsTableDdl(schema: string): string[] {
  const t = jobsTable(schema);
  return [
    `create table ${t} ("id" bigserial primary key, "kind" varchar(120) not null, "key" varchar(300) null, "dedupe_key" varchar(300) null, "payload" jsonb not null, "status" text not null default 'queued', "attempts" int not null default 0, "max_attempts" int null, "run_at" timestamptz not null, "lease_until" timestamptz null, "worker" varchar(80) null, "progress" jsonb null, "result" jsonb null, "last_error" text null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null)`,
    `create index "jobs_kind_status_id_index" on ${t} ("kind", "status", "id")`,
    `create index "jobs_dedupe_key_status_index" on ${t} ("dedupe_key", "status")`,
    `create index "jobs_key_status_id_index" on ${t} ("key", "status", "id")`,
    `create index "jobs_status_run_at_index" on ${t} ("status", "run_at")`,
    `alter table ${t} add constraint "jobs_status_check" check ("status" in ('queued', 'running', 'succeeded', 'dead', 'canceled'))`,
  ];
}
