// Per-request loaders of the variant aggregate.
import { PrimedLoader } from '../../../lib/loaders.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { variantsOfProducts, type VariantRow } from './variant.repository.js';

declare module '../context.js' {
  interface CatalogLoaders {
    /** a product's variants by position (`Product.variants`); the product page primes it */
    variantsByProduct: PrimedLoader<string, VariantRow[]>;
  }
}

export function variantLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'variantsByProduct'> {
  return { variantsByProduct: new PrimedLoader(async (ids) => variantsOfProducts(ctx.em, await appPartition(ctx), ids)) };
}
