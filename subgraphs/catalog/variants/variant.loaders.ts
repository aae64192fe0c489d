// Per-request loaders of the variant aggregate.
import { ChildRowsLoader } from '../../../lib/loaders.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { variantRows, variantsColumn, variantsOfProducts, type VariantRow } from './variant.repository.js';

declare module '../context.js' {
  interface CatalogLoaders {
    /** a product's variants by position (`Product.variants`); the product page primes it */
    variantsByProduct: ChildRowsLoader<VariantRow>;
  }
}

export function variantLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'variantsByProduct'> {
  return {
    variantsByProduct: new ChildRowsLoader(async (ids) => variantsOfProducts(ctx.em, await appPartition(ctx), ids), { column: () => variantsColumn(ctx.em), fromRow: variantRows(ctx.em) }),
  };
}
