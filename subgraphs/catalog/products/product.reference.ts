import type { CatalogContext } from '../context.js';
import { toProduct, type Product } from './product.type.js';

export const productReference = {
  Product: {
    async __resolveReference(ref: { id: string }, ctx: CatalogContext): Promise<Product | null> {
      const row = await ctx.loaders.productById.load(ref.id);
      return row ? toProduct(row) : null;
    },
  },
};
