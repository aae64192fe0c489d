import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Directive } from 'type-graphql';
import { mapNow } from '../../../lib/loaders.js';
import type { CatalogContext } from '../context.js';
import type { EffectivePriceValue } from '../pricing/pricing.service.js';
import { ProductOptionInput } from '../products/product.inputs.js';
import { formatMoney, variantPrice } from '../products/product.rules.js';
import { Product, toProduct } from '../products/product.type.js';
import { CreateVariantInput, UpdateVariantInput } from './variant.inputs.js';
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
  // not async: a page primed the base prices of its products (product.page.ts), answered at once
  price(@Root() v: Variant, @Ctx() ctx: CatalogContext): VariantPrice | null | Promise<VariantPrice | null> {
    return mapNow(ctx.loaders.variantBasePrice.loadNow(v.productId), (base: EffectivePriceValue | null) => base && priced(v, base));
  }
}

/** Product.variants: a page of products reads its variants in one statement. */
@Resolver(() => Product)
export class ProductVariantsResolver {
  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [Variant], { description: 'variants, by position (the first `first`)' })
  // not async: a page primed the loader with its variants (product.page.ts), answered at once
  variants(@Root() p: Product, @Ctx() ctx: CatalogContext, @Arg('first', () => Int, { defaultValue: 100 }) first: number): Variant[] | Promise<Variant[]> {
    return ctx.loaders.variantsByProduct.firstNow(p.id, first, toVariant);
  }
}

/** A variant's price: the product's effective price (in its currency) with the variant's modifier. */
function priced(v: Variant, base: EffectivePriceValue): VariantPrice {
  const amount = variantPrice(base.amount, v.priceModifier);
  return { amount, currency: base.currency, formatted: formatMoney(amount, base.currency) };
}
