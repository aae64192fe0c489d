import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { CreateProductInput } from './product.inputs.js';
import { Product, ProductPage, toProduct } from './product.type.js';
import * as products from './product.service.js';

@Resolver(() => Product)
export class ProductResolver {
  @Authorized('products:read')
  @Query(() => Product, { description: 'A product of the calling app; PRODUCT_NOT_FOUND otherwise' })
  async product(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Product> {
    return toProduct(await products.getProduct(ctx, id));
  }

  @Authorized('products:read')
  @Query(() => ProductPage)
  async products(
    @Ctx() ctx: CatalogContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
  ): Promise<ProductPage> {
    const { items, total } = await products.listProducts(ctx, page, pageSize);
    return { items: items.map(toProduct), total, page, pageSize };
  }

  @Authorized('products:write')
  @Mutation(() => Product)
  async createProduct(@Ctx() ctx: CatalogContext, @Arg('input', () => CreateProductInput) input: CreateProductInput): Promise<Product> {
    return toProduct(await products.createProduct(ctx, input));
  }
}
