import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireRoles } from '../../../lib/subgraph.js';
import { SECRET_KEY } from '../../../lib/tenant.js';
import type { CatalogContext } from '../context.js';
import { Product } from '../products/product.type.js';
import { CurrencyPriceInput, CustomerPriceInput, PriceTierInput, ScheduledPriceInput } from './pricing.inputs.js';
import { CustomerPrice, EffectivePrice, EffectivePriceList, ProductPricing, ScheduledPrice, money, toCurrencyPrice, toCustomerPrice, toScheduledPrice, toTier } from './pricing.type.js';
import * as pricing from './pricing.service.js';

function toPricing(d: pricing.ProductPricingData): ProductPricing {
  const p = d.product;
  return Object.assign(new ProductPricing(), {
    id: p.id,
    basePrice: p.priceAmount != null && p.priceCurrency ? money(p.priceAmount, p.priceCurrency, p.compareAtAmount) : null,
    prices: d.prices.map(toCurrencyPrice),
    tiers: d.tiers.map(toTier),
    customerPrices: d.customerPrices.map(toCustomerPrice),
    scheduledPrices: d.scheduledPrices.map((s) => toScheduledPrice(s)),
  });
}

/**
 * A price for a named customer or customer group is that customer's negotiated price, as
 * customerPrices lists them: it needs a secret key (a publishable key could walk customer ids).
 * The price for no one in particular (scheduled, tier, base) is public catalog data.
 */
const FOR_A_CUSTOMER = ['products:read', SECRET_KEY];

function forCustomer(ctx: CatalogContext, customerId?: string | null, customerGroupIds?: readonly string[] | null): void {
  if (customerId || customerGroupIds?.length) requireRoles(ctx.tenant, FOR_A_CUSTOMER);
}

function toEffective(v: pricing.EffectivePriceValue): EffectivePrice {
  return Object.assign(new EffectivePrice(), { ...v, id: v.productId });
}

@Resolver(() => ProductPricing)
export class PricingResolver {
  @Authorized('products:read')
  @Query(() => ProductPricing, { description: 'Every price source of a product' })
  async productPricing(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string): Promise<ProductPricing> {
    return toPricing(await pricing.getPricing(ctx, productId));
  }

  /** Each customer's negotiated price: the app's server side reads them, a publishable key (a browser) does not. */
  @Authorized('products:read', SECRET_KEY)
  @FieldResolver()
  customerPrices(@Root() p: ProductPricing): CustomerPrice[] {
    return p.customerPrices;
  }

  @Authorized('products:read')
  @Query(() => EffectivePrice, { description: 'The effective price of one product (precedence: customer > customer group > scheduled > tier > base)' })
  async effectivePrice(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('currency', () => String, { nullable: true, description: "default: the currency of the product's own price" }) currency: string | null,
    @Arg('quantity', () => Int, { defaultValue: 1 }) quantity: number,
    @Arg('customerId', () => String, { nullable: true }) customerId?: string | null,
    @Arg('customerGroupIds', () => [String], { nullable: true }) customerGroupIds?: string[] | null,
    @Arg('at', () => Date, { nullable: true, description: 'default: now' }) at?: Date | null,
  ): Promise<EffectivePrice> {
    forCustomer(ctx, customerId, customerGroupIds);
    return toEffective(await pricing.effectivePrice(ctx, productId, { currency, quantity, customerId, customerGroupIds, at }));
  }

  @Authorized('products:read')
  @Query(() => EffectivePriceList, { description: `Effective prices of up to ${pricing.MAX_PRICE_BATCH} products, computed in one statement` })
  async effectivePrices(
    @Ctx() ctx: CatalogContext,
    @Arg('productIds', () => [ID]) productIds: string[],
    @Arg('currency') currency: string,
    @Arg('quantity', () => Int, { defaultValue: 1 }) quantity: number,
    @Arg('customerId', () => String, { nullable: true }) customerId?: string | null,
    @Arg('customerGroupIds', () => [String], { nullable: true }) customerGroupIds?: string[] | null,
    @Arg('at', () => Date, { nullable: true }) at?: Date | null,
  ): Promise<EffectivePriceList> {
    forCustomer(ctx, customerId, customerGroupIds);
    const outcomes = await pricing.effectivePrices(
      ctx,
      productIds.map((productId) => ({ productId, quantity })),
      { currency, customerId, customerGroupIds, at },
    );
    return {
      items: outcomes.flatMap((o) => (o.ok ? [toEffective(o.price)] : [])),
      errors: outcomes.flatMap((o) => (o.ok ? [] : [{ productId: o.productId, code: o.error.code, message: o.error.message }])),
    };
  }

  @Authorized('products:write')
  @Mutation(() => ProductPricing, { description: "Replace the product's base prices per currency (one per currency)" })
  async setProductPrices(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('prices', () => [CurrencyPriceInput]) prices: CurrencyPriceInput[],
  ): Promise<ProductPricing> {
    return toPricing(await pricing.setPrices(ctx, productId, prices));
  }

  @Authorized('products:write')
  @Mutation(() => ProductPricing, { description: "Replace the product's quantity tiers (no overlaps per currency; only the highest open-ended)" })
  async setPriceTiers(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('tiers', () => [PriceTierInput]) tiers: PriceTierInput[],
  ): Promise<ProductPricing> {
    return toPricing(await pricing.setTiers(ctx, productId, tiers.map((t) => ({ minQuantity: t.minQuantity, maxQuantity: t.maxQuantity, currency: t.price.currency, amount: t.price.amount }))));
  }

  @Authorized('products:write')
  @Mutation(() => ProductPricing, { description: "Replace the product's customer and customer-group prices" })
  async setCustomerPrices(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('prices', () => [CustomerPriceInput]) prices: CustomerPriceInput[],
  ): Promise<ProductPricing> {
    return toPricing(
      await pricing.setCustomerPrices(ctx, productId, prices.map((p) => ({ customerId: p.customerId, customerGroupId: p.customerGroupId, currency: p.price.currency, amount: p.price.amount }))),
    );
  }

  @Authorized('products:write')
  @Mutation(() => ScheduledPrice, { description: 'Add a scheduled price: valid from startsAt (inclusive) to endsAt (exclusive)' })
  async createScheduledPrice(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('input', () => ScheduledPriceInput) input: ScheduledPriceInput,
  ): Promise<ScheduledPrice> {
    const s = await pricing.addScheduledPrice(ctx, productId, {
      name: input.name,
      currency: input.price.currency,
      amount: input.price.amount,
      compareAtCurrency: input.compareAt?.currency,
      compareAt: input.compareAt?.amount,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
    });
    return toScheduledPrice(s);
  }

  @Authorized('products:write')
  @Mutation(() => ScheduledPrice, { description: 'Remove a scheduled price' })
  async deleteScheduledPrice(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('id', () => ID) id: string): Promise<ScheduledPrice> {
    return toScheduledPrice(await pricing.deleteScheduledPrice(ctx, productId, id));
  }
}

/** Product.effectivePrice: a page of products is priced in one statement (ctx.loaders.effectivePrice). */
@Resolver(() => Product)
export class ProductEffectivePriceResolver {
  @Authorized('products:read')
  @FieldResolver(() => EffectivePrice, {
    nullable: true,
    description: 'The effective price for a quantity, customer and instant (see Query.effectivePrice); null, with an error at its path, when the product has no price in the currency',
  })
  async effectivePrice(
    @Root() product: Product,
    @Ctx() ctx: CatalogContext,
    @Arg('currency') currency: string,
    @Arg('quantity', () => Int, { defaultValue: 1 }) quantity: number,
    @Arg('customerId', () => String, { nullable: true }) customerId?: string | null,
    @Arg('customerGroupIds', () => [String], { nullable: true }) customerGroupIds?: string[] | null,
    @Arg('at', () => Date, { nullable: true }) at?: Date | null,
  ): Promise<EffectivePrice> {
    forCustomer(ctx, customerId, customerGroupIds);
    return toEffective(await ctx.loaders.effectivePrice({ currency, customerId, customerGroupIds, at }).load({ productId: product.id, quantity }));
  }
}
