// Product search: the search documents the indexing job writes and the search query.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductSearchDocumentEntity } from './search-document.entity.js';
import { ProductSearchResolver } from './search.resolver.js';

export const productSearchModule: SubgraphModule<CatalogContext> = {
  name: 'product-search',
  entities: [ProductSearchDocumentEntity],
  resolvers: [ProductSearchResolver],
};
