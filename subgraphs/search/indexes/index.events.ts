// Search domain events. Payload types live here until the lead folds them into lib/events.ts;
// the topic carries the tenant, so a subscriber only ever hears its own app and environment.
import { appTopic, SEARCH_INDEX_EVENTS_TOPIC } from '../../../lib/events.js';

export type SearchEventName = 'index.created' | 'index.deleted' | 'settings.updated' | 'indexing.completed' | 'indexing.failed';

export interface IndexEventPayload {
  event: Extract<SearchEventName, 'index.created' | 'index.deleted' | 'settings.updated'>;
  occurredAt: string;
  indexUid: string;
}

export const searchTopics = {
  searchEvents: appTopic(SEARCH_INDEX_EVENTS_TOPIC),
};
