// Tasks as the API sees them: enqueue (with its event), read, list, cancel. Tenancy is explicit:
// every query carries the caller's app partition.
import { DomainError } from '../../../lib/errors.js';
import type { SearchContext } from '../context.js';
import { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType } from './task.entity.js';
import { publishTaskEvent } from './task.events.js';
import * as queue from './task.queue.js';
import type { NewTask, TaskRow } from './task.queue.js';
import { appPartition } from '../../../lib/tenant-entity.js';

export const MAX_TASK_PAGE = 1000;

export async function enqueue(ctx: SearchContext, t: Omit<NewTask, 'appId' | 'environment'>): Promise<TaskRow> {
  const row = await queue.enqueueTask(ctx.runtime.pool, { ...(await appPartition(ctx)), ...t });
  await publishTaskEvent(ctx.runtime, row, 'task.enqueued');
  return row;
}

export async function getTask(ctx: SearchContext, id: string): Promise<TaskRow> {
  const row = await queue.findTask(ctx.runtime.pool, await appPartition(ctx), id);
  if (!row) throw new DomainError('task_not_found', `Task \`${id}\` not found.`, { parameter: 'taskId' });
  return row;
}

/** When the caller's last finished task finished (null: none has). */
export async function lastTaskFinished(ctx: SearchContext): Promise<Date | null> {
  return queue.lastFinished(ctx.runtime.pool, await appPartition(ctx));
}

function csv<T extends string>(value: string | undefined | null, allowed: readonly T[], parameter: string): T[] | undefined {
  if (value == null || value === '') return undefined;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const v of list) {
    if (!(allowed as readonly string[]).includes(v)) throw new DomainError('BAD_REQUEST', `${parameter}: "${v}" is not one of ${allowed.join(', ')}`, { parameter });
  }
  return list as T[];
}

export interface TaskListArgs {
  status?: string | null;
  type?: string | null;
  indexUid?: string | null;
  limit?: number | null;
  from?: string | null;
}

export async function listTasks(ctx: SearchContext, a: TaskListArgs) {
  const limit = a.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TASK_PAGE) throw new DomainError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_TASK_PAGE}`, { parameter: 'limit' });
  if (a.from != null && !/^\d{1,18}$/.test(a.from)) throw new DomainError('BAD_REQUEST', 'from must be a task id', { parameter: 'from' });
  const statuses = csv<TaskStatus>(a.status, TASK_STATUSES, 'status');
  const types = csv<TaskType>(a.type, TASK_TYPES, 'type');
  const indexUids = a.indexUid ? a.indexUid.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const page = await queue.listTasks(ctx.runtime.pool, await appPartition(ctx), { statuses, types, indexUids, limit, from: a.from ?? undefined });
  return { ...page, limit };
}

/** Tasks one bulk cancel reaches at most (a larger selection answers `remaining`: call again). */
export const MAX_BULK_CANCEL = 1000;

export interface TaskCancelArgs {
  type?: string | null;
  indexUid?: string | null;
  /** comma list of task ids */
  uids?: string | null;
}

/**
 * Cancel the enqueued tasks of a selection (Meilisearch's POST /tasks/cancel): at least one of
 * indexUid, type or uids, so a bare call never empties the whole queue. Each canceled task's
 * `task.canceled` event follows, as for one.
 */
export async function cancelTasks(ctx: SearchContext, a: TaskCancelArgs): Promise<{ canceled: TaskRow[]; remaining: number }> {
  const types = csv<TaskType>(a.type, TASK_TYPES, 'type');
  const indexUids = a.indexUid ? a.indexUid.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const uids = a.uids ? a.uids.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  if (uids?.some((u) => !/^\d{1,18}$/.test(u))) throw new DomainError('BAD_REQUEST', 'uids must be a comma list of task ids', { parameter: 'uids' });
  if (!types?.length && !indexUids?.length && !uids?.length) {
    throw new DomainError('BAD_REQUEST', 'Name the tasks to cancel: indexUid, type or uids (a bare call would cancel the whole queue)', { parameter: 'uids' });
  }
  const r = await queue.cancelTasks(ctx.runtime.pool, await appPartition(ctx), { types, indexUids, uids }, MAX_BULK_CANCEL);
  for (const t of r.canceled) await publishTaskEvent(ctx.runtime, t, 'task.canceled');
  return r;
}

/** Tasks one bulk delete reaches at most (a larger selection answers `remaining`: call again). */
export const MAX_BULK_DELETE = 10_000;

export interface TaskDeleteArgs extends TaskCancelArgs {
  /** comma list of finished statuses (default: all three) */
  status?: string | null;
}

/**
 * Delete finished tasks of a selection from the history (Meilisearch's DELETE /tasks): at least one of
 * indexUid, type, uids or status, so a bare call never empties the history; an enqueued or processing
 * task is never deleted (cancel it first). Documents, indexes and engines keep nothing of a task's row.
 */
export async function deleteTasks(ctx: SearchContext, a: TaskDeleteArgs): Promise<{ deleted: number; remaining: number }> {
  const types = csv<TaskType>(a.type, TASK_TYPES, 'type');
  const statuses = csv<TaskStatus>(a.status, queue.FINISHED_STATUSES, 'status');
  const indexUids = a.indexUid ? a.indexUid.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const uids = a.uids ? a.uids.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  if (uids?.some((u) => !/^\d{1,18}$/.test(u))) throw new DomainError('BAD_REQUEST', 'uids must be a comma list of task ids', { parameter: 'uids' });
  if (!types?.length && !indexUids?.length && !uids?.length && !statuses?.length) {
    throw new DomainError('BAD_REQUEST', 'Name the tasks to delete: indexUid, type, uids or status (a bare call would delete the whole history)', { parameter: 'uids' });
  }
  return queue.deleteTasks(ctx.runtime.pool, await appPartition(ctx), { types, indexUids, uids, statuses: statuses?.length ? statuses : [...queue.FINISHED_STATUSES] }, MAX_BULK_DELETE);
}

export async function cancelTask(ctx: SearchContext, id: string): Promise<{ task: TaskRow; canceled: boolean }> {
  const r = /^\d{1,18}$/.test(id) ? await queue.cancelTask(ctx.runtime.pool, await appPartition(ctx), id) : undefined;
  if (!r) throw new DomainError('task_not_found', `Task \`${id}\` not found.`, { parameter: 'taskId' });
  if (r.canceled) await publishTaskEvent(ctx.runtime, r.task, 'task.canceled');
  return r;
}
