// The gateway's Subscription root fields over the catalog's events (lib/contract.ts): `npm run
// compose` writes them to schema/contract.json; the gateway serves them from there, resolving each
// event's product through the supergraph with the subscriber's selection.
import type { SubgraphSubscriptions } from '../../lib/contract.js';
import { INVENTORY_EVENTS_TOPIC, PRODUCT_EVENTS_TOPIC } from './event-types.js';

const PRODUCT = { field: 'product', query: 'product', idArg: 'id', idType: 'ID!', idFrom: 'productId' };

export const CATALOG_SUBSCRIPTIONS: SubgraphSubscriptions = {
  types: `
"""A product lifecycle event of the calling app (product.created, product.updated, product.deleted, product.published)"""
type ProductEvent {
  event: String!
  occurredAt: DateTimeISO!
  productId: ID!
  """The product, resolved through the supergraph; null once it is gone"""
  product: Product
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
`,
  fields: [
    {
      field: 'productEvents',
      sdl: `"""Product events of the calling app and environment (scope products:read)"""
  productEvents: ProductEvent!`,
      eventType: 'ProductEvent',
      scope: 'products:read',
      topic: PRODUCT_EVENTS_TOPIC,
      entity: PRODUCT,
    },
    {
      field: 'inventoryEvents',
      sdl: `"""Every stock event of the calling app and environment: inventory.adjusted, inventory.low_stock, inventory.out_of_stock (scope products:read)"""
  inventoryEvents(productId: ID): InventoryEvent!`,
      eventType: 'InventoryEvent',
      scope: 'products:read',
      topic: INVENTORY_EVENTS_TOPIC,
      entity: PRODUCT,
      argFilters: { productId: 'productId' },
    },
    {
      field: 'inventoryAlerts',
      sdl: `"""Stock alerts (inventory.low_stock, inventory.out_of_stock) of the calling app, optionally of one product and/or one location (scope products:read)"""
  inventoryAlerts(productId: ID, locationId: ID): InventoryEvent!`,
      eventType: 'InventoryEvent',
      scope: 'products:read',
      topic: INVENTORY_EVENTS_TOPIC,
      entity: PRODUCT,
      events: ['inventory.low_stock', 'inventory.out_of_stock'],
      argFilters: { productId: 'productId', locationId: 'locationId' },
    },
  ],
};
