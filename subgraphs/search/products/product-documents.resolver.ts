// The resolver of Product.searchDocuments and Product's reference (product-documents.ts has the lookup).
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SearchContext } from '../context.js';
import { ProductRef, ProductSearchDocument } from './product-documents.js';

@Resolver(() => ProductRef)
export class ProductDocumentsResolver {
  @Authorized('search:read')
  @FieldResolver(() => [ProductSearchDocument], { description: 'Documents of the caller\'s indexes whose primary key is this product\'s id, by index uid' })
  async searchDocuments(@Root() p: ProductRef, @Ctx() ctx: SearchContext): Promise<ProductSearchDocument[]> {
    return ctx.loaders.documentsByProduct.load(p.id);
  }
}

export const productReference = {
  Product: {
    __resolveReference(ref: { id: string }): ProductRef {
      return { id: ref.id };
    },
  },
};
