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

/** A selection of the caller's tasks, as the list, bulk cancel and bulk delete take it (comma lists, ISO 8601 instants). */
export interface TaskSelectionArgs {
  indexUid?: string | null;
  type?: string | null;
  /** comma list of task ids */
  uids?: string | null;
  beforeEnqueuedAt?: string | null;
  afterEnqueuedAt?: string | null;
  beforeStartedAt?: string | null;
  afterStartedAt?: string | null;
  beforeFinishedAt?: string | null;
  afterFinishedAt?: string | null;
}

/** Each time bound of a selection: its argument, the column it bounds and how. */
const TIME_BOUNDS: readonly [keyof TaskSelectionArgs, queue.TaskTimeBound['column'], queue.TaskTimeBound['op']][] = [
  ['beforeEnqueuedAt', 'enqueued_at', '<'],
  ['afterEnqueuedAt', 'enqueued_at', '>'],
  ['beforeStartedAt', 'started_at', '<'],
  ['afterStartedAt', 'started_at', '>'],
  ['beforeFinishedAt', 'finished_at', '<'],
  ['afterFinishedAt', 'finished_at', '>'],
];

/** An ISO 8601 date or date-time (a date alone is its midnight UTC). */
function instant(value: string, parameter: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d\d-\d\d([T ][\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/.test(value.trim()) || Number.isNaN(at.getTime())) {
    throw new DomainError('BAD_REQUEST', `${parameter} must be an ISO 8601 date or date-time, e.g. 2026-12-01T08:00:00Z`, { parameter });
  }
  return at;
}

/** The selection's arguments checked; each names its parameter when it is malformed. */
function parseSelection(a: TaskSelectionArgs): queue.TaskSelection {
  const types = csv<TaskType>(a.type, TASK_TYPES, 'type');
  const indexUids = a.indexUid ? a.indexUid.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const uids = a.uids ? a.uids.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  if (uids?.some((u) => !/^\d{1,18}$/.test(u))) throw new DomainError('BAD_REQUEST', 'uids must be a comma list of task ids', { parameter: 'uids' });
  const times = TIME_BOUNDS.flatMap(([arg, column, op]) => {
    const v = a[arg];
    return v == null || v === '' ? [] : [{ column, op, at: instant(v, arg) }];
  });
  return { types, indexUids, uids, times };
}

/** Whether a selection names any tasks at all (a bulk call without one would reach them all). */
function namesTasks(s: queue.TaskSelection): boolean {
  return !!(s.types?.length || s.indexUids?.length || s.uids?.length || s.times?.length);
}

export interface TaskListArgs extends TaskSelectionArgs {
  status?: string | null;
  limit?: number | null;
  from?: string | null;
  reverse?: boolean | null;
}

export async function listTasks(ctx: SearchContext, a: TaskListArgs) {
  const limit = a.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TASK_PAGE) throw new DomainError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_TASK_PAGE}`, { parameter: 'limit' });
  if (a.from != null && !/^\d{1,18}$/.test(a.from)) throw new DomainError('BAD_REQUEST', 'from must be a task id', { parameter: 'from' });
  const statuses = csv<TaskStatus>(a.status, TASK_STATUSES, 'status');
  const page = await queue.listTasks(ctx.runtime.pool, await appPartition(ctx), { ...parseSelection(a), statuses, limit, from: a.from ?? undefined, reverse: a.reverse ?? false });
  return { ...page, limit };
}

/** Tasks one bulk cancel reaches at most (a larger selection answers `remaining`: call again). */
export const MAX_BULK_CANCEL = 1000;

/**
 * Cancel the enqueued tasks of a selection (Meilisearch's POST /tasks/cancel): at least one of
 * indexUid, type, uids or a time bound, so a bare call never empties the whole queue. Each canceled
 * task's `task.canceled` event follows, as for one.
 */
export async function cancelTasks(ctx: SearchContext, a: TaskSelectionArgs): Promise<{ canceled: TaskRow[]; remaining: number }> {
  const selection = parseSelection(a);
  if (!namesTasks(selection)) {
    throw new DomainError('BAD_REQUEST', 'Name the tasks to cancel: indexUid, type, uids or a time bound (a bare call would cancel the whole queue)', { parameter: 'uids' });
  }
  const r = await queue.cancelTasks(ctx.runtime.pool, await appPartition(ctx), selection, MAX_BULK_CANCEL);
  for (const t of r.canceled) await publishTaskEvent(ctx.runtime, t, 'task.canceled');
  return r;
}

/** Tasks one bulk delete reaches at most (a larger selection answers `remaining`: call again). */
export const MAX_BULK_DELETE = 10_000;

export interface TaskDeleteArgs extends TaskSelectionArgs {
  /** comma list of finished statuses (default: all three) */
  status?: string | null;
}

/**
 * Delete finished tasks of a selection from the history (Meilisearch's DELETE /tasks): at least one of
 * indexUid, type, uids, a time bound or status, so a bare call never empties the history; an enqueued
 * or processing task is never deleted (cancel it first). Documents, indexes and engines keep nothing
 * of a task's row.
 */
export async function deleteTasks(ctx: SearchContext, a: TaskDeleteArgs): Promise<{ deleted: number; remaining: number }> {
  const selection = parseSelection(a);
  const statuses = csv<TaskStatus>(a.status, queue.FINISHED_STATUSES, 'status');
  if (!namesTasks(selection) && !statuses?.length) {
    throw new DomainError('BAD_REQUEST', 'Name the tasks to delete: indexUid, type, uids, a time bound or status (a bare call would delete the whole history)', { parameter: 'uids' });
  }
  return queue.deleteTasks(ctx.runtime.pool, await appPartition(ctx), { ...selection, statuses: statuses?.length ? statuses : [...queue.FINISHED_STATUSES] }, MAX_BULK_DELETE);
}

export async function cancelTask(ctx: SearchContext, id: string): Promise<{ task: TaskRow; canceled: boolean }> {
  const r = /^\d{1,18}$/.test(id) ? await queue.cancelTask(ctx.runtime.pool, await appPartition(ctx), id) : undefined;
  if (!r) throw new DomainError('task_not_found', `Task \`${id}\` not found.`, { parameter: 'taskId' });
  if (r.canceled) await publishTaskEvent(ctx.runtime, r.task, 'task.canceled');
  return r;
}
