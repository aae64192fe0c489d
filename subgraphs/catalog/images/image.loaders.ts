// Per-request loaders of the image aggregate.
import { ChildRowsLoader } from '../../../lib/loaders.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { imageRows, imagesColumn, imagesOfProducts, type ProductImageRow } from './image.repository.js';

declare module '../context.js' {
  interface CatalogLoaders {
    /** a product's images by position (`Product.images`); the product page primes it */
    imagesByProduct: ChildRowsLoader<ProductImageRow>;
  }
}

export function imageLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'imagesByProduct'> {
  return { imagesByProduct: new ChildRowsLoader(async (ids) => imagesOfProducts(ctx.em, await appPartition(ctx), ids), { column: imagesColumn, fromRow: imageRows(ctx.em) }) };
}
