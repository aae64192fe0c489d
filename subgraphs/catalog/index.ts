// The catalog subgraph: one module per aggregate (`<aggregate>/<aggregate>.module.ts`: its entities,
// resolvers, reference resolvers, loaders and job kinds), merged here by composeModules.
import { composeModules } from '../../lib/subgraph-module.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { CATALOG_ERRORS } from './error-codes.js';
import { CATALOG_EVENT_TYPES } from './event-types.js';
import { CATALOG_SUBSCRIPTIONS } from './subscription-fields.js';
import { CATALOG_LIMITS } from './limits.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import type { CatalogContext, CatalogLoaders } from './context.js';
import { migrations } from './migrations/index.js';
import { CATALOG_SCHEMA, createCatalogRuntime, type CatalogRuntime } from './runtime.js';
// imported in the order of the list below: type-graphql orders the schema's fields as their classes load
import { productModule } from './products/product.module.js';
import { appModule } from './apps/app.module.js';
import { productSearchModule } from './product-search/search.module.js';
import { relatedModule } from './related/related.module.js';
import { variantModule } from './variants/variant.module.js';
import { webhookModule } from './events/webhook.module.js';
import { categoryModule } from './categories/category.module.js';
import { collectionModule } from './collections/collection.module.js';
import { pricingModule } from './pricing/pricing.module.js';
import { imageModule } from './images/image.module.js';
import { inventoryModule } from './inventory/inventory.module.js';
import { locationModule } from './locations/location.module.js';
import { visionModule } from './vision/vision.module.js';

const modules = composeModules<CatalogLoaders, CatalogContext>([
  productModule,
  appModule,
  productSearchModule,
  relatedModule,
  variantModule,
  webhookModule,
  categoryModule,
  collectionModule,
  pricingModule,
  imageModule,
  inventoryModule,
  locationModule,
  visionModule,
  // the job kinds of the modules: one worker for all but the visual-search embeddings, one for those
], { schema: CATALOG_SCHEMA, worker: { pollMs: 500 } });

export const catalog: SubgraphDefinition<CatalogLoaders, CatalogRuntime> = {
  name: 'catalog',
  dbSchema: 'catalog',
  resolvers: modules.resolvers as SubgraphDefinition['resolvers'],
  referenceResolvers: modules.referenceResolvers,
  entities: modules.entities,
  migrations,
  eventTypes: [CATALOG_EVENT_TYPES],
  errorCodes: CATALOG_ERRORS,
  subscriptions: CATALOG_SUBSCRIPTIONS,
  limits: CATALOG_LIMITS,
  scope: scopeToApp,
  createLoaders: modules.createLoaders,
  runtime: async (deps) => {
    const value = await createCatalogRuntime(deps);
    return { value, stop: () => value.vision.stop() };
  },
  // the vision models' state and load time (lib/vision) and the visual-search vectors held, in
  // /health/ready and the bridge's /health/detailed
  health: async (rt) => ({ vision: rt.vision.health(), visual_search_vectors: rt.vectors.stats() }),
  // every module's job kinds (lib/subgraph-module.ts)
  workers: modules.workers,
};
