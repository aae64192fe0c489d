import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, Directive, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { CreateProductInput, ProductFilterInput, UpdateProductInput } from './product.inputs.js';
import { pageSelection } from './product.page.js';
import { bundleAvailable, inventoryFlags } from './product.rules.js';
import { Product, ProductPage, toProduct } from './product.type.js';
import * as products from './product.service.js';

@Resolver(() => Product)
export class ProductResolver {
  @Authorized('products:read')
  @Query(() => Product, { description: 'A product of the calling app; PRODUCT_NOT_FOUND otherwise (also once soft-deleted)' })
  async product(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Product> {
    return toProduct(await products.getProduct(ctx, id));
  }

  @Authorized('products:read')
  @Query(() => Product, { description: 'A product by SKU (variant SKUs are not products)' })
  async productBySku(@Ctx() ctx: CatalogContext, @Arg('sku') sku: string): Promise<Product> {
    return toProduct(await products.getProductBySku(ctx, sku));
  }

  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => ProductPage, { description: 'Products, filtered and sorted (default newest first; by relevance with a search and no sort)' })
  async products(
    @Ctx() ctx: CatalogContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
    @Arg('sort', () => String, { nullable: true, description: 'name, -name, price, -price, created_at, -created_at' }) sort?: string | null,
    @Arg('filter', () => ProductFilterInput, { nullable: true }) filter?: ProductFilterInput | null,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<ProductPage> {
    const { items, total } = await products.listProducts(ctx, { page, pageSize, sort, filter }, info && pageSelection(info));
    return { items: items.map(toProduct), total, page, pageSize };
  }

  @Authorized('products:write')
  @Mutation(() => Product)
  async createProduct(@Ctx() ctx: CatalogContext, @Arg('input', () => CreateProductInput) input: CreateProductInput): Promise<Product> {
    return toProduct(await products.createProduct(ctx, input));
  }

  @Authorized('products:write')
  @Mutation(() => Product, { description: 'Change the given fields; status becoming active publishes product.published' })
  async updateProduct(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string, @Arg('input', () => UpdateProductInput) input: UpdateProductInput): Promise<Product> {
    return toProduct(await products.updateProduct(ctx, id, input));
  }

  @Authorized('products:write')
  @Mutation(() => Product, { description: 'Soft delete (hidden, SKU reserved, restorable) or, with permanent, remove for good' })
  async deleteProduct(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string, @Arg('permanent', { defaultValue: false }) permanent: boolean): Promise<Product> {
    return toProduct(await products.deleteProduct(ctx, id, permanent));
  }

  @Authorized('products:write')
  @Mutation(() => Product, { description: 'Bring back a soft-deleted product' })
  async restoreProduct(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Product> {
    return toProduct(await products.restoreProduct(ctx, id));
  }

  @Authorized('products:read')
  @FieldResolver(() => Int, {
    nullable: true,
    description: 'bundles: how many can be sold now, the least of available / quantity over the required components (null for other types)',
  })
  // not async: for the products that are not bundles (most of a page) the answer is there at once,
  // so a page's objects stay on graphql-js's synchronous path
  bundleAvailable(@Root() p: Product, @Ctx() ctx: CatalogContext): Promise<number | null> | null {
    if (p.type !== 'bundle' || !p.bundleItems?.length) return null;
    return this.bundleAvailableOf(p.bundleItems, ctx);
  }

  private async bundleAvailableOf(items: NonNullable<Product['bundleItems']>, ctx: CatalogContext): Promise<number> {
    const parts = await ctx.loaders.productById.loadMany(items.map((i) => i.productId));
    const available = new Map<string, number>();
    for (const c of parts) if (c && !(c instanceof Error)) available.set(c.id, inventoryFlags(c).inStock && !c.trackStock ? Number.MAX_SAFE_INTEGER : inventoryFlags(c).available);
    return bundleAvailable(items, (id) => available.get(id) ?? 0);
  }
}
