// Per-request loader of Product.searchDocuments: the caller's indexes only (tenant filter on the
// index lookup).
import DataLoader from 'dataloader';
import type { SearchContext } from '../context.js';
import { documentsByProductIds, type ProductSearchDocument } from './product-documents.js';

declare module '../context.js' {
  interface SearchLoaders {
    documentsByProduct: DataLoader<string, ProductSearchDocument[]>;
  }
}

export function productDocumentLoaders(ctx: SearchContext): Pick<SearchContext['loaders'], 'documentsByProduct'> {
  return { documentsByProduct: new DataLoader((ids) => documentsByProductIds(ctx, ids)) };
}
