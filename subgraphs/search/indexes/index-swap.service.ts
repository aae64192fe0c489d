// Swapping indexes (Meilisearch's POST /swap-indexes): each pair of the caller's indexes trades
// names, atomically, so an index rebuilt under a second name takes the place of the live one with
// no moment where searches find neither. Synchronous like index creation, recorded as a succeeded
// `index_swap` task. Documents, settings, snapshots, engines and analytics stay with the index's id;
// only the uids move, in the index rows and in the task history (as Meilisearch renames the tasks of
// swapped indexes). Tasks enqueued before the swap keep the index they were enqueued for, which is
// what Meilisearch's in-order processing gives too: they apply to that data, now under the other name.
// The swap takes each index's queue lock (the lock every enqueue holds while it inserts its task), so
// an enqueue racing the swap either commits first (the swap then renames its task with the others)
// or inserts after the swap has committed (and reads the index's new uid): no task keeps a stale name.
import type pg from 'pg';
import { DomainError } from '../../../lib/errors.js';
import { lockJobKey } from '../../../lib/jobs/store.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { SearchContext } from '../context.js';
import { rows, run, withTx } from '../db.js';
import { SCHEMA, T } from '../sql.js';
import { indexQueueKey, insertFinishedTask, type TaskRow } from '../tasks/task.queue.js';
import { publishTaskEvent } from '../tasks/task.events.js';
import { validateUid } from './index.service.js';

/** pairs one request may swap */
export const MAX_SWAPS = 100;

/** The request's pairs, checked: each exactly two distinct well-formed uids, no uid in two pairs. */
function parseSwaps(swaps: unknown): [string, string][] {
  if (!Array.isArray(swaps) || swaps.length === 0 || swaps.length > MAX_SWAPS) {
    throw new DomainError('invalid_swap_indexes', `swaps must be an array of 1 to ${MAX_SWAPS} pairs: [{ indexes: [a, b] }]`, { parameter: 'swaps' });
  }
  const seen = new Set<string>();
  return swaps.map((s, i) => {
    const pair = (s as { indexes?: unknown } | null)?.indexes;
    if (!Array.isArray(pair) || pair.length !== 2 || pair.some((u) => typeof u !== 'string') || pair[0] === pair[1]) {
      throw new DomainError('invalid_swap_indexes', `swaps[${i}].indexes must name two different indexes`, { parameter: `swaps[${i}].indexes` });
    }
    for (const uid of pair as string[]) {
      validateUid(uid, `swaps[${i}].indexes`);
      if (seen.has(uid)) throw new DomainError('invalid_swap_duplicate_index_found', `Index \`${uid}\` is in more than one swap.`, { parameter: `swaps[${i}].indexes` });
      seen.add(uid);
    }
    return pair as [string, string];
  });
}

/**
 * Lock the caller's indexes named `uids` for a change of names (swap, rename): their queue locks
 * first, in id order (an enqueue takes one; a worker takes none), so a write being enqueued is listed
 * under the name its index holds once both are done; then their unfinished tasks' rows and then
 * their own rows, in id order. A worker locks its task's row before its index's row (task.job.ts), so
 * this takes them in that order too: locking the index rows first and then renaming the tasks waited
 * for a task row whose worker waited for the index row, a deadlock PostgreSQL broke by failing the
 * rename (a 500 seen in a clean-clone run). Returns uid → id of those that are live: an index with a
 * deletion pending is as good as gone (renaming it would hand a name's data to the deletion).
 */
export async function lockLiveIndexes(c: pg.PoolClient, appId: string, environment: string, uids: readonly string[]): Promise<Map<string, string>> {
  const ids = await rows<{ id: string }>(c, `select id from ${T.indexes} where app_id = $1 and environment = $2 and uid = any($3::text[]) order by id`, [appId, environment, uids]);
  for (const { id } of ids) await lockJobKey(c, SCHEMA, indexQueueKey(id));
  await run(c, `select id from ${T.tasks} where index_id = any($1::text[]) and status in ('enqueued', 'processing') order by id for update`, [ids.map((r) => r.id)]);
  const found = await rows<{ id: string; uid: string; deleting: boolean }>(
    c,
    `select i.id, i.uid, exists (select 1 from ${T.tasks} t where t.index_id = i.id and t.type = 'index_deletion' and t.status in ('enqueued', 'processing')) as deleting
       from ${T.indexes} i where i.app_id = $1 and i.environment = $2 and i.uid = any($3::text[]) order by i.id for update of i`,
    [appId, environment, uids],
  );
  return new Map(found.filter((r) => !r.deleting).map((r) => [r.uid, r.id]));
}

export async function swapIndexes(ctx: SearchContext, swaps: unknown): Promise<TaskRow> {
  const pairs = parseSwaps(swaps);
  const { appId, environment } = await appPartition(ctx);
  const rt = ctx.runtime;
  const uids = pairs.flat();
  const task = await withTx(rt.pool, async (c) => {
    const found = await lockLiveIndexes(c, appId, environment, uids);
    pairs.forEach((pair, i) => {
      for (const uid of pair) {
        if (!found.has(uid)) throw new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: `swaps[${i}].indexes` });
      }
    });
    for (const [a, b] of pairs) {
      const [ia, ib] = [found.get(a)!, found.get(b)!];
      // through a name no uid can take (uids are [A-Za-z0-9_-]): (app, environment, uid) stays unique at every step
      await run(c, `update ${T.indexes} set uid = $2, updated_at = clock_timestamp() where id = $1`, [ia, `~swap~${ia}`]);
      await run(c, `update ${T.indexes} set uid = $2, updated_at = clock_timestamp() where id = $1`, [ib, a]);
      await run(c, `update ${T.indexes} set uid = $2, updated_at = clock_timestamp() where id = $1`, [ia, b]);
      await run(c, `update ${T.tasks} set index_uid = case index_id when $1 then $3 else $4 end where index_id in ($1, $2)`, [ia, ib, b, a]);
    }
    return insertFinishedTask(c, { appId, environment, indexId: null, indexUid: pairs[0][0], type: 'index_swap', details: { swaps: pairs.map((indexes) => ({ indexes })) } });
  });
  await publishTaskEvent(rt, task, 'task.succeeded');
  return task;
}
