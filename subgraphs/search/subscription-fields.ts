// The gateway's Subscription root field over the search tasks' progress (lib/contract.ts): `npm run
// compose` writes it to schema/contract.json; the gateway serves it from there, resolving each
// event's task through the supergraph with the subscriber's selection.
import type { SubgraphSubscriptions } from '../../lib/contract.js';
import { SEARCH_TASKS_TOPIC } from './event-types.js';

export const SEARCH_SUBSCRIPTIONS: SubgraphSubscriptions = {
  types: `
"""Progress of a search task of the calling app (task.enqueued, task.processing, task.succeeded, task.failed, task.canceled)"""
type SearchTaskEvent {
  event: String!
  occurredAt: DateTimeISO!
  taskId: ID!
  indexUid: String!
  taskType: String!
  status: String!
  """documents indexed (or deleted) by the task; set on task.succeeded"""
  documentsIndexed: Int
  """The task as it is when the event is delivered, resolved through the supergraph"""
  task: SearchTask
}
`,
  fields: [
    {
      field: 'taskEvents',
      sdl: `"""Search task progress of the calling app and environment (scope search:read)"""
  taskEvents: SearchTaskEvent!`,
      eventType: 'SearchTaskEvent',
      scope: 'search:read',
      topic: SEARCH_TASKS_TOPIC,
      entity: { field: 'task', query: 'searchTask', idArg: 'id', idType: 'ID!', idFrom: 'taskId' },
    },
  ],
};
