// Product search: the search documents the indexing job writes, the search query, and the indexing
// job (kind catalog.products.index).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductSearchDocumentEntity } from './search-document.entity.js';
import { productIndexJob } from './search.indexing.js';
import { ProductSearchResolver } from './search.resolver.js';

export const productSearchModule: SubgraphModule<CatalogContext> = {
  name: 'product-search',
  entities: [ProductSearchDocumentEntity],
  resolvers: [ProductSearchResolver],
  jobs: (deps) => [productIndexJob(() => deps.orm.em.fork())],
};
