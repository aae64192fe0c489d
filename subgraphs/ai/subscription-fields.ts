// The gateway's Subscription root field over the AI events (lib/contract.ts): `npm run compose`
// writes it to schema/contract.json; the gateway serves it from there, resolving a batch event's
// batch through the supergraph with the subscriber's selection.
import type { SubgraphSubscriptions } from '../../lib/contract.js';
import { AI_EVENTS_TOPIC } from './event-types.js';

export const AI_SUBSCRIPTIONS: SubgraphSubscriptions = {
  types: `
"""An AI event of the calling app (batch.completed: status completed or failed; classifier.trained: status succeeded or failed; moderation.flagged: status flagged)"""
type AiEvent {
  event: String!
  occurredAt: DateTimeISO!
  """batch.completed"""
  batchId: ID
  """batch.completed"""
  operation: String
  status: String!
  """classifier.trained"""
  classifierId: ID
  """classifier.trained"""
  trainingId: ID
  """classifier.trained: the version of the model the training produced"""
  modelVersion: Int
  """classifier.trained: accuracy on the training's held-out split"""
  accuracy: Float
  """moderation.flagged: the moderation answer's id"""
  moderationId: ID
  """moderation.flagged: text or image"""
  content: String
  """moderation.flagged: review or block"""
  action: String
  """moderation.flagged: the categories flagged (the text or image itself is never sent)"""
  flaggedCategories: [String!]
  """The batch with its results, resolved through the supergraph (needs a registered user's JWT beside the key)"""
  batch: AiBatch
}
`,
  fields: [
    {
      field: 'aiEvents',
      sdl: `"""AI events of the calling app and environment (scope ai:read)"""
  aiEvents: AiEvent!`,
      eventType: 'AiEvent',
      scope: 'ai:read',
      topic: AI_EVENTS_TOPIC,
      // an event without a batch (classifier.trained) links none
      entity: { field: 'batch', query: 'aiBatch', idArg: 'id', idType: 'ID!', idFrom: 'batchId' },
    },
  ],
};
