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

export async function cancelTask(ctx: SearchContext, id: string): Promise<{ task: TaskRow; canceled: boolean }> {
  const r = /^\d{1,18}$/.test(id) ? await queue.cancelTask(ctx.runtime.pool, await appPartition(ctx), id) : undefined;
  if (!r) throw new DomainError('task_not_found', `Task \`${id}\` not found.`, { parameter: 'taskId' });
  if (r.canceled) await publishTaskEvent(ctx.runtime, r.task, 'task.canceled');
  return r;
}
