// What search adds to the catalog's Product entity (its search documents), with their loader.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { productDocumentLoaders } from './product-documents.loaders.js';
import { ProductRef } from './product-documents.js';
import { ProductDocumentsResolver, productReference } from './product-documents.resolver.js';

export const productModule: SubgraphModule<SearchContext> = {
  name: 'products',
  resolvers: [ProductDocumentsResolver],
  // Product is the catalog's entity; this subgraph only adds fields to it
  orphanedTypes: [ProductRef],
  referenceResolvers: productReference,
  loaders: productDocumentLoaders,
};
