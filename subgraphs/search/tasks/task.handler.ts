// The interface between the task runner (task.job.ts) and what each task type does. The handlers
// themselves live above this folder (../task-kinds/): they write documents and read index settings,
// while documents/ and indexes/ enqueue tasks, so the runner is given them (taskJobKind(rt, handlers),
// wired by the task-kinds module) instead of importing them. A handler throws a client error
// (DomainError/EngineError) to fail the task with nothing applied.
import type pg from 'pg';
import type { SearchRuntime } from '../runtime.js';
import type { WebhookEvent } from '../webhooks/webhook.events.js';
import type { TaskType } from './task.entity.js';
import type { TaskRow } from './task.queue.js';

/** The task's index row, locked by the runner for the task's transaction. */
export interface TaskIndexRow {
  id: string;
  uid: string;
  primary_key: string | null;
  /** the stored settings (JSON); their shape is the index aggregate's (indexes/index-settings.rules.ts) */
  settings: unknown;
  number_of_documents: number;
  applied_task_id: string;
  purged_through_task_id: string;
}

export interface HandlerInput {
  c: pg.PoolClient;
  task: TaskRow;
  index: TaskIndexRow;
  payload: any;
  /** the payload's JSON text, as stored (null when the task has none) */
  payloadText: string | null;
  rt: SearchRuntime;
  /** ms since the task started (for webhook data) */
  elapsed(): number;
}

export interface HandlerResult {
  details: Record<string, unknown>;
  /** documents indexed or deleted (task events carry it) */
  count: number;
  webhook?: { event: WebhookEvent; data: Record<string, unknown> };
  /** after commit: bring this process's engine along */
  after?: () => Promise<void>;
  /** the task removed the index row */
  indexDeleted?: boolean;
  /** documents the index gained (or lost, negative): the index row's count moves with the task's commit */
  documentsDelta?: number;
  /** the index's primary key, set by the task (its first addition infers or takes it) */
  primaryKey?: string;
}

export type TaskHandler = (i: HandlerInput) => Promise<HandlerResult>;

/** The handler of each task type the workers run (the others finish when they are accepted). */
export type TaskHandlers = Partial<Record<TaskType, TaskHandler>>;
