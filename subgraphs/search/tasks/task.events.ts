// The taskEvents subscription's payloads, published after commit (subscribers never hear of a
// rolled-back task) on the tenant's topic.
import { searchTaskTopic, type SearchTaskEventName, type SearchTaskEventPayload } from '../event-types.js';
import { publishAfterCommit } from '../../../lib/events.js';
import type { Logger } from '../../../lib/logger.js';
import type { PubSub } from '../../../lib/pubsub.js';
import type { Environment } from '../../../lib/tenant.js';
import type { TaskRow } from './task.queue.js';

export async function publishTaskEvent(
  rt: { pubsub: PubSub; log: Logger },
  task: TaskRow,
  event: SearchTaskEventName,
  documentsIndexed: number | null = null,
): Promise<void> {
  const payload: SearchTaskEventPayload = {
    event,
    occurredAt: new Date().toISOString(),
    taskId: String(task.uid),
    indexUid: task.index_uid,
    taskType: task.type,
    status: event.slice('task.'.length),
    documentsIndexed,
  };
  await publishAfterCommit(rt, searchTaskTopic(task.app_id, task.environment as Environment), payload, event);
}
