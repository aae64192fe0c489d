// Catalog contributes `App.products` to the platform's App entity.
import { Authorized, Ctx, FieldResolver, Resolver, Root, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { AppRef, Product, toProduct } from '../products/product.type.js';

@Resolver(() => AppRef)
export class AppProductsResolver {
  @Authorized('products:read')
  @Directive('@listSize(assumedSize: 100)')
  @FieldResolver(() => [Product], { description: 'The newest 100 products of the app (the caller\'s own app only)' })
  async products(@Root() app: AppRef, @Ctx() ctx: CatalogContext): Promise<Product[]> {
    return (await ctx.loaders.productsByApp.load(app.id)).map(toProduct);
  }
}

export const appReference = {
  App: {
    __resolveReference(ref: { id: string }): AppRef {
      return { id: ref.id };
    },
  },
};
