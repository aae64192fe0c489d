// The platform's App entity as the catalog sees it: a reference, and the `App.products` field.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { AppProductsResolver, appReference } from './app.resolver.js';

export const appModule: SubgraphModule<CatalogContext> = {
  name: 'apps',
  resolvers: [AppProductsResolver],
  referenceResolvers: appReference,
};
