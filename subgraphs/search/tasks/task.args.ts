// The arguments naming a selection of the caller's tasks, shared by the task list, bulk cancel and
// bulk delete (Meilisearch's task filters): comma lists, and strict time bounds as ISO 8601 strings
// (checked by the service, which names the argument of a malformed one).
import { ArgsType, Field } from 'type-graphql';
import type { TaskSelectionArgs as Selection } from './task.service.js';

@ArgsType()
export class TaskSelectionArgs implements Selection {
  @Field(() => String, { nullable: true, description: 'comma list of index uids' }) indexUid?: string;
  @Field(() => String, { nullable: true, description: 'comma list of task types' }) type?: string;
  @Field(() => String, { nullable: true, description: 'comma list of task ids' }) uids?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks enqueued before this instant' }) beforeEnqueuedAt?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks enqueued after this instant' }) afterEnqueuedAt?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks started before this instant' }) beforeStartedAt?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks started after this instant' }) afterStartedAt?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks finished before this instant' }) beforeFinishedAt?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601: tasks finished after this instant' }) afterFinishedAt?: string;
}
