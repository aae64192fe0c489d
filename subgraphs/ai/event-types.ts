// The AI service's events: published after commit on the app's topic (the gateway's aiEvents
// subscription) and sent to the app's AI webhooks (webhooks/).
import { appTopic, defineEventTypes, type DomainEvent } from '../../lib/events.js';

export const AI_EVENT_TYPES = defineEventTypes('ai', ['batch.completed', 'moderation.flagged', 'classifier.trained']);
export type AiEventName = (typeof AI_EVENT_TYPES.names)[number];

export interface AiEventPayload extends DomainEvent<AiEventName> {
  batchId?: string;
  operation?: string;
  status: string;
  // classifier.trained
  classifierId?: string;
  trainingId?: string;
  modelVersion?: number | null;
  accuracy?: number | null;
  // moderation.flagged
  moderationId?: string;
  content?: 'text' | 'image';
  action?: string;
  flaggedCategories?: string[];
}

export const AI_EVENTS_TOPIC = 'ai.events';
export const aiEventsTopic = appTopic(AI_EVENTS_TOPIC);
