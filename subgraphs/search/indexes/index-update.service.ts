// Meilisearch's PATCH /indexes/{uid}: a new uid and/or a primary key.
// Renaming an index (a new uid): synchronous, like a swap,
// recorded as a succeeded `index_update` task (details old_index_uid, new_index_uid). Documents,
// settings, snapshots, engines and analytics stay with the index's id; the name moves in the index
// row and in its task history. Locks: the partition's index-name lock (as index creation, so the new
// name cannot be created meanwhile), the index's queue lock (as a swap, so a write being enqueued is
// listed under the name the index holds once both are done), then the row (waiting for a running task).
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { SearchContext } from '../context.js';
import { one, run, withTx } from '../db.js';
import { T } from '../sql.js';
import { publishTaskEvent } from '../tasks/task.events.js';
import { insertFinishedTask, type TaskRow } from '../tasks/task.queue.js';
import { lockLiveIndexes } from './index-swap.service.js';
import { enqueue } from '../tasks/task.service.js';
import { getIndex, lockIndexNames, validatePrimaryKey, validateUid } from './index.service.js';

export async function renameIndex(ctx: SearchContext, uid: string, newUid: string): Promise<TaskRow> {
  validateUid(newUid, 'newUid');
  const { appId, environment } = await appPartition(ctx);
  const rt = ctx.runtime;
  const notFound = () => new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: 'uid' });
  const task = await withTx(rt.pool, async (c) => {
    await lockIndexNames(c, appId, environment);
    const id = (await lockLiveIndexes(c, appId, environment, [uid])).get(uid);
    if (!id) throw notFound();
    const taken = await one(c, `select 1 from ${T.indexes} where app_id = $1 and environment = $2 and uid = $3`, [appId, environment, newUid]);
    if (taken) throw new DomainError('index_already_exists', `Index \`${newUid}\` already exists.`, { parameter: 'newUid' });
    await run(c, `update ${T.indexes} set uid = $2, updated_at = clock_timestamp() where id = $1`, [id, newUid]);
    await run(c, `update ${T.tasks} set index_uid = $2 where index_id = $1`, [id, newUid]);
    return insertFinishedTask(c, { appId, environment, indexId: id, indexUid: newUid, type: 'index_update', details: { old_index_uid: uid, new_index_uid: newUid } });
  });
  await publishTaskEvent(rt, task, 'task.succeeded');
  return task;
}

/**
 * Meilisearch's PATCH /indexes/{uid}: a new uid renames the index at once (renameIndex above, a
 * succeeded index_update task); a primary key is an index_update task, so it runs after the tasks
 * enqueued before it, and fails with index_primary_key_already_exists when the index then holds
 * documents under another key. With both, the rename comes first and the answer is the key's task.
 */
export async function updateIndex(ctx: SearchContext, uid: string, primaryKey: string | null | undefined, newUid?: string | null): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  if (primaryKey == null && newUid == null) throw new DomainError('VALIDATION_FAILED', 'primary_key or new_uid is required', { parameter: 'primaryKey' });
  const pk = primaryKey == null ? undefined : validatePrimaryKey(primaryKey, 'primaryKey')!;
  const renamed = newUid == null ? undefined : await renameIndex(ctx, index.uid, newUid);
  if (pk === undefined) return renamed!;
  const current = renamed ? await getIndex(ctx, renamed.index_uid) : index;
  return enqueue(ctx, { indexId: current.id, indexUid: current.uid, type: 'index_update', details: { primary_key: pk }, payload: JSON.stringify({ primary_key: pk }) });
}
