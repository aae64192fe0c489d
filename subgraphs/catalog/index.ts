// The catalog subgraph: products, variants, related products, product search and catalog webhooks
// (catalog-products.ts); categories, collections and pricing (taxonomy.ts); inventory; product
// images (images/) and their object detection and visual search (vision/).
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { CATALOG_ERRORS } from './error-codes.js';
import { CATALOG_EVENT_TYPES } from './event-types.js';
import { CATALOG_SUBSCRIPTIONS } from './subscription-fields.js';
import { CATALOG_LIMITS } from './limits.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import { createCatalogLoaders, type CatalogLoaders } from './context.js';
import { productReference } from './products/product.reference.js';
import { appReference } from './apps/app.resolver.js';
import { migrations } from './migrations/index.js';
import { PRODUCT_ENTITIES, PRODUCT_RESOLVERS } from './catalog-products.js';
import { TAXONOMY_ENTITIES, TAXONOMY_RESOLVERS } from './taxonomy.js';
import { createCatalogRuntime, type CatalogRuntime } from './runtime.js';
import { startCatalogWorkers } from './workers.js';
import { INVENTORY_ENTITIES, INVENTORY_RESOLVERS } from './catalog-inventory.js';
import { IMAGE_ENTITIES, IMAGE_RESOLVERS } from './images/index.js';
import { VISION_ENTITIES, VISION_RESOLVERS } from './vision/index.js';

export const catalog: SubgraphDefinition<CatalogLoaders, CatalogRuntime> = {
  name: 'catalog',
  dbSchema: 'catalog',
  resolvers: [...PRODUCT_RESOLVERS, ...TAXONOMY_RESOLVERS, ...INVENTORY_RESOLVERS, ...IMAGE_RESOLVERS, ...VISION_RESOLVERS] as unknown as SubgraphDefinition['resolvers'],
  referenceResolvers: { ...productReference, ...appReference },
  entities: [...PRODUCT_ENTITIES, ...TAXONOMY_ENTITIES, ...INVENTORY_ENTITIES, ...IMAGE_ENTITIES, ...VISION_ENTITIES],
  migrations,
  eventTypes: [CATALOG_EVENT_TYPES],
  errorCodes: CATALOG_ERRORS,
  subscriptions: CATALOG_SUBSCRIPTIONS,
  limits: CATALOG_LIMITS,
  scope: scopeToApp,
  createLoaders: createCatalogLoaders,
  runtime: async (deps) => {
    const value = await createCatalogRuntime(deps);
    return { value, stop: () => value.vision.stop() };
  },
  // the vision models' state and load time (lib/vision) and the visual-search vectors held, in
  // /health/ready and the bridge's /health/detailed
  health: async (rt) => ({ vision: rt.vision.health(), visual_search_vectors: rt.vectors.stats() }),
  workers: startCatalogWorkers,
};
