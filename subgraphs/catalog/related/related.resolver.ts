import { Arg, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { Product, toProduct } from '../products/product.type.js';
import * as related from './related.service.js';

@ObjectType()
export class RelatedProduct {
  @Field({ description: 'cross_sells, up_sells or accessories' }) relation!: string;
  @Field(() => Product) product!: Product;
}

@InputType()
export class RelatedProductsInput {
  @Field(() => [ID], { nullable: true }) crossSells?: string[] | null;
  @Field(() => [ID], { nullable: true }) upSells?: string[] | null;
  @Field(() => [ID], { nullable: true }) accessories?: string[] | null;
}

const toRelated = (r: related.RelatedProduct): RelatedProduct => Object.assign(new RelatedProduct(), { relation: r.type, product: toProduct(r.product) });

@Resolver(() => Product)
export class RelatedProductsResolver {
  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @Query(() => [RelatedProduct], { description: 'Related products in order; deleted ones drop out' })
  async relatedProducts(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('type', () => String, { nullable: true, description: 'cross_sells, up_sells, accessories; all when absent' }) type: string | null,
    @Arg('limit', () => Int, { defaultValue: 20 }) limit: number,
  ): Promise<RelatedProduct[]> {
    return (await related.getRelated(ctx, productId, type, limit)).map(toRelated);
  }

  @Authorized('products:write')
  @Mutation(() => [RelatedProduct], { description: 'Replace the lists given (others stay); every id a live product of the app' })
  async setRelatedProducts(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('input', () => RelatedProductsInput) input: RelatedProductsInput): Promise<RelatedProduct[]> {
    const lists = { cross_sells: input.crossSells ?? undefined, up_sells: input.upSells ?? undefined, accessories: input.accessories ?? undefined };
    return (await related.setRelated(ctx, productId, lists)).map(toRelated);
  }

  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [RelatedProduct], { description: 'related products (a page batches them in one statement)' })
  async related(
    @Root() p: Product,
    @Ctx() ctx: CatalogContext,
    @Arg('type', () => String, { nullable: true }) type: string | null,
    @Arg('limit', () => Int, { defaultValue: 20 }) limit: number,
  ): Promise<RelatedProduct[]> {
    return (await ctx.loaders.relatedProducts({ type, limit: Math.min(Math.max(limit, 1), 150) }).load(p.id)).map(toRelated);
  }
}
