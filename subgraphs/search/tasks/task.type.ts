// The API shape of a task. REST renders the same object with snake_case keys.
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType } from './task.entity.js';
import type { TaskRow } from './task.queue.js';

// Enum values are the REST strings themselves (enqueued, document_addition_or_update...).
export const TaskStatusEnum = Object.fromEntries(TASK_STATUSES.map((s) => [s, s])) as { [K in TaskStatus]: K };
export const TaskTypeEnum = Object.fromEntries(TASK_TYPES.map((s) => [s, s])) as { [K in TaskType]: K };
registerEnumType(TaskStatusEnum, { name: 'SearchTaskStatus', description: 'enqueued → processing → succeeded | failed | canceled' });
registerEnumType(TaskTypeEnum, { name: 'SearchTaskType' });

@ObjectType('SearchTaskError')
export class TaskError {
  @Field({ description: 'lower_snake code, as in error bodies (invalid_document_id, document_limit_exceeded...)' }) code!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true, description: 'the offending input, e.g. documents[3].id' }) parameter?: string | null;
}

@ObjectType('SearchTaskDetails', { description: 'What the task was given and what it did; fields not relevant to its type are null' })
export class TaskDetails {
  @Field(() => Int, { nullable: true }) documentsReceived?: number | null;
  @Field(() => Int, { nullable: true, description: 'documents added or replaced (a batch repeating an id counts it once)' }) documentsIndexed?: number | null;
  @Field(() => String, { nullable: true }) primaryKey?: string | null;
  @Field(() => Int, { nullable: true }) providedIds?: number | null;
  @Field(() => Int, { nullable: true }) deletedDocuments?: number | null;
  @Field(() => GraphQLJSON, { nullable: true }) originalFilter?: unknown;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'settings given to a settings update, as written' }) settings?: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true }) canceledAt?: Date | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'an index swap: the pairs swapped, [{ indexes: [a, b] }]' }) swaps?: unknown;
  @Field(() => String, { nullable: true, description: 'a rename: the name the index had' }) oldIndexUid?: string | null;
  @Field(() => String, { nullable: true, description: 'a rename: the name the index took' }) newIndexUid?: string | null;
}

@ObjectType('SearchTask', { description: 'A write to an index (Meilisearch task): enqueued → processing → succeeded | failed | canceled' })
export class Task {
  @Field(() => ID, { description: 'task uid: a number, increasing in enqueue order' }) id!: string;
  @Field(() => TaskStatusEnum) status!: TaskStatus;
  @Field(() => TaskTypeEnum) taskType!: TaskType;
  @Field() indexUid!: string;
  @Field(() => TaskDetails) details!: TaskDetails;
  @Field(() => TaskError, { nullable: true }) error!: TaskError | null;
  @Field() enqueuedAt!: Date;
  @Field(() => Date, { nullable: true }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
}

@ObjectType('SearchTaskPage')
export class TaskPage {
  @Field(() => [Task]) results!: Task[];
  @Field(() => Int) limit!: number;
  @Field(() => ID, { nullable: true, description: 'pass as `from` to read the next (older) page; null on the last page' }) next!: string | null;
}

@ObjectType('SearchTaskCancelation')
export class TaskCancelation {
  @Field(() => Task) task!: Task;
  @Field({ description: 'true when this request canceled it; false when it had already left the queue' }) canceled!: boolean;
}

@ObjectType('SearchTaskBulkCancelation')
export class TaskBulkCancelation {
  @Field(() => [Task], { description: 'the tasks this request canceled, oldest first' }) canceled!: Task[];
  @Field(() => Int, { description: 'tasks of the selection still enqueued (beyond the 1,000 one call cancels): call again' }) remaining!: number;
}

const num = (v: unknown) => (typeof v === 'number' ? v : null);

export function toTask(r: TaskRow): Task {
  const d = r.details ?? {};
  return {
    id: String(r.uid),
    status: r.status,
    taskType: r.type,
    indexUid: r.index_uid,
    details: {
      documentsReceived: num(d.documents_received),
      documentsIndexed: num(d.documents_indexed),
      primaryKey: typeof d.primary_key === 'string' ? d.primary_key : null,
      providedIds: num(d.provided_ids),
      deletedDocuments: num(d.deleted_documents),
      originalFilter: d.original_filter ?? null,
      settings: (d.settings as Record<string, unknown>) ?? null,
      canceledAt: typeof d.canceled_at === 'string' ? new Date(d.canceled_at) : null,
      swaps: d.swaps ?? null,
      oldIndexUid: typeof d.old_index_uid === 'string' ? d.old_index_uid : null,
      newIndexUid: typeof d.new_index_uid === 'string' ? d.new_index_uid : null,
    },
    error: r.error ? { code: r.error.code, message: r.error.message, parameter: r.error.parameter ?? null } : null,
    enqueuedAt: r.enqueued_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
  };
}

@ObjectType('SearchTaskBulkDeletion')
export class TaskBulkDeletion {
  @Field(() => Int, { description: 'finished tasks this request deleted' }) deleted!: number;
  @Field(() => Int, { description: 'finished tasks of the selection left (beyond the 10,000 one call deletes): call again' }) remaining!: number;
}
