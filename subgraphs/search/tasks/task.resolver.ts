import { Arg, Args, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import { SECRET_KEY } from '../../../lib/tenant.js';
import type { SearchContext } from '../context.js';
import { TaskSelectionArgs } from './task.args.js';
import * as tasks from './task.service.js';
import { Task, TaskBulkCancelation, TaskBulkDeletion, TaskCancelation, TaskPage, toTask } from './task.type.js';

@Resolver(() => Task)
export class TaskResolver {
  @Authorized('search:read', SECRET_KEY)
  @Query(() => Task, { description: 'A task of the calling app; task_not_found otherwise' })
  async searchTask(@Ctx() ctx: SearchContext, @Arg('id', () => ID) id: string): Promise<Task> {
    return toTask(await tasks.getTask(ctx, id));
  }

  @Authorized('search:read', SECRET_KEY)
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["results"], requireOneSlicingArgument: false)')
  @Query(() => TaskPage, { description: 'Tasks of the calling app, newest first' })
  async searchTasks(
    @Ctx() ctx: SearchContext,
    @Args() selection: TaskSelectionArgs,
    @Arg('status', () => String, { nullable: true, description: 'comma list of statuses' }) status?: string,
    @Arg('limit', () => Int, { nullable: true, description: `default 20, at most ${tasks.MAX_TASK_PAGE}` }) limit?: number,
    @Arg('from', () => ID, { nullable: true, description: 'first task id of the page (the previous page\'s `next`)' }) from?: string,
    @Arg('reverse', () => Boolean, { nullable: true, description: 'oldest first (default: newest first)' }) reverse?: boolean,
  ): Promise<TaskPage> {
    const page = await tasks.listTasks(ctx, { ...selection, status, limit, from, reverse });
    return { results: page.tasks.map(toTask), limit: page.limit, next: page.next };
  }

  @Authorized('search:write')
  @Mutation(() => TaskBulkCancelation, {
    description: `Cancel the enqueued tasks of a selection (at least one of indexUid, type, uids or a time bound; at most ${tasks.MAX_BULK_CANCEL} a call)`,
  })
  async cancelSearchTasks(@Ctx() ctx: SearchContext, @Args() selection: TaskSelectionArgs): Promise<TaskBulkCancelation> {
    const r = await tasks.cancelTasks(ctx, { ...selection });
    return { canceled: r.canceled.map(toTask), remaining: r.remaining };
  }

  @Authorized('search:write')
  @Mutation(() => TaskBulkDeletion, {
    description: `Delete finished tasks of a selection from the history (at least one of indexUid, type, uids, a time bound or status; at most ${tasks.MAX_BULK_DELETE} a call); enqueued and processing tasks stay`,
  })
  async deleteSearchTasks(
    @Ctx() ctx: SearchContext,
    @Args() selection: TaskSelectionArgs,
    @Arg('status', () => String, { nullable: true, description: 'comma list of succeeded, failed, canceled (default: all three)' }) status?: string,
  ): Promise<TaskBulkDeletion> {
    return tasks.deleteTasks(ctx, { ...selection, status });
  }

  @Authorized('search:write')
  @Mutation(() => TaskCancelation, { description: 'Cancel a task still enqueued; a task that already started or finished is returned unchanged (canceled: false)' })
  async cancelSearchTask(@Ctx() ctx: SearchContext, @Arg('id', () => ID) id: string): Promise<TaskCancelation> {
    const r = await tasks.cancelTask(ctx, id);
    return { task: toTask(r.task), canceled: r.canceled };
  }
}
