// The catalog subgraph: products (this issue); variants, categories, inventory... come later.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import { createCatalogLoaders, type CatalogLoaders } from './context.js';
import { ProductEntity } from './products/product.entity.js';
import { ProductResolver } from './products/product.resolver.js';
import { productReference } from './products/product.reference.js';
import { AppProductsResolver, appReference } from './apps/app.resolver.js';
import { migrations } from './migrations/index.js';
import { TAXONOMY_ENTITIES, TAXONOMY_RESOLVERS } from './taxonomy.js';

export const catalog: SubgraphDefinition<CatalogLoaders> = {
  name: 'catalog',
  dbSchema: 'catalog',
  resolvers: [ProductResolver, AppProductsResolver, ...TAXONOMY_RESOLVERS],
  referenceResolvers: { ...productReference, ...appReference },
  entities: [ProductEntity, ...TAXONOMY_ENTITIES],
  migrations,
  scope: scopeToApp,
  createLoaders: createCatalogLoaders,
};
