// The search service's events: task progress (enqueued → processing → succeeded | failed |
// canceled), published after commit on the app's topic, heard by the gateway's subscriptions.
import { appTopic, defineEventTypes, type DomainEvent } from '../../lib/events.js';

export const SEARCH_TASK_EVENTS = defineEventTypes('search', ['task.enqueued', 'task.processing', 'task.succeeded', 'task.failed', 'task.canceled']);
export type SearchTaskEventName = (typeof SEARCH_TASK_EVENTS.names)[number];

export interface SearchTaskEventPayload extends DomainEvent<SearchTaskEventName> {
  taskId: string;
  indexUid: string;
  taskType: string;
  status: string;
  /** documents indexed (or deleted) by the task so far; null until known */
  documentsIndexed: number | null;
}

export const SEARCH_TASKS_TOPIC = 'search.tasks';
export const searchTaskTopic = appTopic(SEARCH_TASKS_TOPIC);

/** What an app's search webhooks can subscribe to (webhooks/). */
export const SEARCH_WEBHOOK_EVENTS = defineEventTypes('search', ['indexing.completed', 'indexing.failed', 'index.created', 'index.deleted', 'settings.updated']);
