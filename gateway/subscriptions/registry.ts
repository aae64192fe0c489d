// The gateway-owned Subscription root. Each entry: its SDL, the scope it needs, the per-tenant
// topic it listens on, and how the event's entity field is resolved through the supergraph
// (so a subscriber can select fields owned by any subgraph).
import { inventoryEventsTopic, productEventsTopic } from '../../subgraphs/catalog/event-types.js';
import { searchTaskTopic } from '../../subgraphs/search/event-types.js';
import { aiEventsTopic } from '../../subgraphs/ai/event-types.js';
import type { TenantContext } from '../../lib/tenant.js';

export interface EntityLink {
  /** field on the event type that holds the entity */
  field: string;
  /** supergraph root query that fetches it by id */
  query: string;
  idArg: string;
  idType: string;
  /** event payload → id */
  id: (payload: any) => string;
}

/** Which events of the topic one subscriber hears, from the field's arguments (none: every event). */
export type SubscriptionFilter = (payload: any, args: Record<string, unknown>) => boolean;

export interface SubscriptionDef {
  field: string;
  eventType: string;
  scope: string;
  topic: (t: TenantContext) => string | undefined;
  link: EntityLink;
  filter?: SubscriptionFilter;
}

/** Kept beside schema/ as schema/subscriptions.graphql by scripts/compose.ts; validated against the supergraph. */
export const SUBSCRIPTION_SDL = `
"""A product lifecycle event of the calling app (product.created, product.updated, product.deleted, product.published)"""
type ProductEvent {
  event: String!
  occurredAt: DateTimeISO!
  productId: ID!
  """The product, resolved through the supergraph; null once it is gone"""
  product: Product
}

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

"""An AI event of the calling app (batch.completed: status completed or failed; classifier.trained: status succeeded or failed)"""
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
  """The batch with its results, resolved through the supergraph (needs a registered user's JWT beside the key)"""
  batch: AiBatch
}

"""A stock event of the calling app (inventory.adjusted, inventory.low_stock, inventory.out_of_stock)"""
type InventoryEvent {
  event: String!
  occurredAt: DateTimeISO!
  productId: ID!
  variantId: ID
  """the location of the change; null for a change not at one location (a reservation)"""
  locationId: ID
  sku: String!
  name: String!
  """available after the change (the webhook's current_quantity)"""
  currentQuantity: Int!
  threshold: Int
  """inventory.adjusted: the level's change at the location"""
  delta: Int
  """on hand after the change, all locations"""
  totalQuantity: Int!
  reason: String
  """The product, resolved through the supergraph; null once it is gone"""
  product: Product
}

type Subscription {
  """Product events of the calling app and environment (scope products:read)"""
  productEvents: ProductEvent!
  """Search task progress of the calling app and environment (scope search:read)"""
  taskEvents: SearchTaskEvent!
  """AI events of the calling app and environment (scope ai:read)"""
  aiEvents: AiEvent!
  """Every stock event of the calling app and environment: inventory.adjusted, inventory.low_stock, inventory.out_of_stock (scope products:read)"""
  inventoryEvents(productId: ID): InventoryEvent!
  """Stock alerts (inventory.low_stock, inventory.out_of_stock) of the calling app, optionally of one product and/or one location (scope products:read)"""
  inventoryAlerts(productId: ID, locationId: ID): InventoryEvent!
}

extend schema { subscription: Subscription }
`;

export const SUBSCRIPTIONS: SubscriptionDef[] = [
  {
    field: 'productEvents',
    eventType: 'ProductEvent',
    scope: 'products:read',
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? productEventsTopic(t.appId, t.environment) : undefined),
    link: { field: 'product', query: 'product', idArg: 'id', idType: 'ID!', id: (p) => p.productId },
  },
  {
    field: 'taskEvents',
    eventType: 'SearchTaskEvent',
    scope: 'search:read',
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? searchTaskTopic(t.appId, t.environment) : undefined),
    link: { field: 'task', query: 'searchTask', idArg: 'id', idType: 'ID!', id: (p) => p.taskId },
  },
  {
    field: 'aiEvents',
    eventType: 'AiEvent',
    scope: 'ai:read',
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? aiEventsTopic(t.appId, t.environment) : undefined),
    link: { field: 'batch', query: 'aiBatch', idArg: 'id', idType: 'ID!', id: (p) => p.batchId },
  },
  // inventory: stock events and alerts on the app's inventory topic, filtered per subscriber
  {
    field: 'inventoryEvents',
    eventType: 'InventoryEvent',
    scope: 'products:read',
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? inventoryEventsTopic(t.appId, t.environment) : undefined),
    link: { field: 'product', query: 'product', idArg: 'id', idType: 'ID!', id: (p) => p.productId },
    filter: (p, a) => !a.productId || p.productId === a.productId,
  },
  {
    field: 'inventoryAlerts',
    eventType: 'InventoryEvent',
    scope: 'products:read',
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? inventoryEventsTopic(t.appId, t.environment) : undefined),
    link: { field: 'product', query: 'product', idArg: 'id', idType: 'ID!', id: (p) => p.productId },
    filter: (p, a) => p.event !== 'inventory.adjusted' && (!a.productId || p.productId === a.productId) && (!a.locationId || p.locationId === a.locationId),
  },
];
