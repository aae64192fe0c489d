// Every write to an index is a task (Meilisearch's index-scheduler): enqueued → processing →
// succeeded | failed | canceled. Per index, ids are drawn in commit order (task.queue.ts), so "in
// order" is simply "by id"; each task runs as a job of lib/jobs keyed by its index.
// The documents of an addition wait in task_payloads until the task runs.
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';

export const TASK_STATUSES = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_TYPES = [
  'index_creation',
  'index_deletion',
  'settings_update',
  'document_addition_or_update',
  'document_deletion',
  'document_deletion_by_filter',
  'index_swap',
  'index_update',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export interface TaskErrorData {
  code: string;
  message: string;
  parameter?: string;
}

@Entity({ tableName: 'tasks' })
@Index({ properties: ['appId', 'environment', 'id'] })
@Unique({ properties: ['appId', 'environment', 'uid'] })
@Index({ properties: ['indexId', 'id'] })
@Index({ properties: ['status', 'id'] })
export class TaskEntity extends AppScopedEntity {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number & Opt;

  /** the task's number as the API shows it: counted per app partition (lib/tenant-sequence.ts), 1, 2, 3… */
  @Property({ type: new BigIntType('number') })
  uid!: number;

  /** null only for tasks that never had an index row */
  @Property({ length: 32, nullable: true })
  indexId?: string;

  @Property({ length: 400, collation: 'C' })
  indexUid!: string;

  @Enum({ items: () => TASK_TYPES })
  type!: TaskType;

  @Enum({ items: () => TASK_STATUSES, default: 'enqueued' })
  status: TaskStatus & Opt = 'enqueued';

  /** documents_received, documents_indexed, provided_ids, deleted_documents, original_filter, settings... */
  @Property({ type: 'json' })
  details: Record<string, unknown> & Opt = {};

  @Property({ type: 'json', nullable: true })
  error?: TaskErrorData | null;

  @Property({ type: 'timestamptz' })
  enqueuedAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt?: Date | null;

  @Property({ type: 'integer', nullable: true })
  durationMs?: number | null;

  /** how many times a worker took it up (> 1 only after a worker died or a fault was retried) */
  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  /** the worker (process) that ran it last; its job (lib/jobs, kind search.task) holds the lease */
  @Property({ length: 80, nullable: true })
  worker?: string | null;
}

/** The task's input (documents, ids, filter, settings) until it has run; deleted when it finishes. */
@Entity({ tableName: 'task_payloads' })
export class TaskPayloadEntity {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: false })
  taskId!: number;

  /** JSON text: parsed by the worker only, so PostgreSQL need not build a jsonb value on enqueue */
  @Property({ type: 'text' })
  body!: string;
}
