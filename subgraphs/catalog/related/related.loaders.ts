// Per-request loaders of related products: a page's products in one statement per (type, limit).
import DataLoader from 'dataloader';
import { loaderFamily } from '../../../lib/loaders.js';
import type { CatalogContext } from '../context.js';
import type { RelationType } from './related.entity.js';
import { relatedOf, type RelatedProduct } from './related.service.js';

export interface RelatedQuery {
  /** one list, or all when null */
  type: string | null;
  limit: number;
}

declare module '../context.js' {
  interface CatalogLoaders {
    /** the related products of each product (`Product.related`), at most `limit` */
    relatedProducts(query: RelatedQuery): DataLoader<string, RelatedProduct[]>;
  }
}

export function relatedLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'relatedProducts'> {
  return {
    relatedProducts: loaderFamily(
      (q: RelatedQuery) => `${q.type}:${q.limit}`,
      (q: RelatedQuery) =>
        new DataLoader<string, RelatedProduct[]>(async (ids) => {
          const m = await relatedOf(ctx, [...ids], (q.type ?? undefined) as RelationType | undefined, q.limit);
          return ids.map((id) => m.get(id) ?? []);
        }),
    ),
  };
}
