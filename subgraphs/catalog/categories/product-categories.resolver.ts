// `Product.categories`: a field the category aggregate adds to the product type, so the product
// aggregate imports no category code. A product page primes the loader in its own statement
// (product.page.ts reaches it through ctx.loaders); another read loads it here, batched.
import { Arg, Authorized, Ctx, Directive, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { Product } from '../products/product.type.js';
import { Category, toCategory } from './category.type.js';

@Resolver(() => Product)
export class ProductCategoriesResolver {
  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [Category], { description: 'categories the product is assigned to' })
  // not async: a page primed the loader with its categories (product.page.ts), answered at once
  categories(@Root() p: Product, @Ctx() ctx: CatalogContext, @Arg('first', () => Int, { defaultValue: 50 }) first: number): Category[] | Promise<Category[]> {
    return ctx.loaders.categoriesByProduct.firstNow(p.id, first, (c) => toCategory(c));
  }
}
