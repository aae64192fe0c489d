// The search nodes' registry in PostgreSQL (search.nodes): heartbeats, the live set, leaving. Times
// are the database's (now()), so the nodes' clocks need not agree.
import type pg from 'pg';
import { rows, run } from '../db.js';
import { T } from '../sql.js';
import type { RingNode } from './ring.rules.js';

/** Register (or refresh) this node: its URL and heartbeat. */
export async function heartbeat(pool: pg.Pool, node: RingNode): Promise<void> {
  await run(pool, `insert into ${T.nodes} (id, url) values ($1, $2) on conflict (id) do update set url = excluded.url, heartbeat_at = now()`, [node.id, node.url]);
}

/** The nodes whose heartbeat is younger than `staleMs`, by id. */
export function liveNodes(pool: pg.Pool, staleMs: number): Promise<RingNode[]> {
  return rows<RingNode>(pool, `select id, url from ${T.nodes} where heartbeat_at > now() - make_interval(secs => $1::float8 / 1000) order by id`, [staleMs]);
}

/** A node leaving on purpose: the others stop sending it searches at their next look. Rows of nodes dead for a day are removed too. */
export async function leave(pool: pg.Pool, nodeId: string): Promise<void> {
  await run(pool, `delete from ${T.nodes} where id = $1 or heartbeat_at < now() - interval '1 day'`, [nodeId]);
}

/** What the registry needs of an index to load its engine (placement warms engines by id). */
export async function indexStates(pool: pg.Pool, ids: string[]) {
  if (!ids.length) return [];
  return rows<{ id: string; settings: Record<string, unknown>; applied_task_id: string; purged_through_task_id: string }>(
    pool,
    `select id, settings, applied_task_id, purged_through_task_id from ${T.indexes} where id = any($1::text[])`,
    [ids],
  );
}
