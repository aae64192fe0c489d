import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { priceLoader } from '../pricing/pricing.service.js';
import { ProductOptionInput } from '../products/product.inputs.js';
import { formatMoney, variantPrice } from '../products/product.rules.js';
import { Product, toProduct } from '../products/product.type.js';
import { CreateVariantInput, UpdateVariantInput } from './variant.inputs.js';
import { variantsByProduct } from './variant.loaders.js';
import * as variants from './variant.service.js';
import { Variant, VariantPrice, toVariant } from './variant.type.js';

@Resolver(() => Variant)
export class VariantResolver {
  @Authorized('products:read')
  @Query(() => [Variant], { description: 'Variants of a product, by position' })
  async productVariants(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string): Promise<Variant[]> {
    return (await variants.listVariants(ctx, productId)).map(toVariant);
  }

  @Authorized('products:write')
  @Mutation(() => Variant, { description: 'Add a variant; its options must match the product options (INVALID_OPTION_VALUES)' })
  async createVariant(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('input', () => CreateVariantInput) input: CreateVariantInput): Promise<Variant> {
    return toVariant(await variants.createVariant(ctx, productId, input));
  }

  @Authorized('products:write')
  @Mutation(() => Variant)
  async updateVariant(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('variantId', () => ID) variantId: string,
    @Arg('input', () => UpdateVariantInput) input: UpdateVariantInput,
  ): Promise<Variant> {
    return toVariant(await variants.updateVariant(ctx, productId, variantId, input));
  }

  @Authorized('products:write')
  @Mutation(() => Variant, { description: 'Remove a variant; its SKU is free again' })
  async deleteVariant(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('variantId', () => ID) variantId: string): Promise<Variant> {
    return toVariant(await variants.deleteVariant(ctx, productId, variantId));
  }

  @Authorized('products:write')
  @Mutation(() => Product, { description: 'Replace the option names and allowed values (existing variants must still match)' })
  async setProductOptions(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('options', () => [ProductOptionInput]) options: ProductOptionInput[]): Promise<Product> {
    return toProduct(await variants.setOptions(ctx, productId, options));
  }

  @FieldResolver(() => VariantPrice, { nullable: true, description: "the product's effective price (quantity 1, now, its own currency) with the modifier applied; null when the product has no price" })
  async price(@Root() v: Variant, @Ctx() ctx: CatalogContext): Promise<VariantPrice | null> {
    const product = await ctx.loaders.productById.load(v.productId);
    if (!product?.priceCurrency || product.priceAmount == null) return null;
    const effective = await priceLoader(ctx, { currency: product.priceCurrency }).load({ productId: product.id });
    const amount = variantPrice(effective.amount, v.priceModifier);
    return { amount, currency: product.priceCurrency, formatted: formatMoney(amount, product.priceCurrency) };
  }
}

/** Product.variants: a page of products reads its variants in one statement. */
@Resolver(() => Product)
export class ProductVariantsResolver {
  @Authorized('products:read')
  @FieldResolver(() => [Variant], { description: 'variants, by position (the first `first`)' })
  async variants(@Root() p: Product, @Ctx() ctx: CatalogContext, @Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<Variant[]> {
    return (await variantsByProduct(ctx).load(p.id)).slice(0, Math.max(0, first)).map(toVariant);
  }
}
