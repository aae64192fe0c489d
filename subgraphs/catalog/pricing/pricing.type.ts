// API shapes of prices. Money (amount, currency, formatted) is the products' own type.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { formatMoney, Money } from '../products/product.type.js';
import type { CustomerPriceEntity, PriceTierEntity, ProductPriceEntity, ScheduledPriceEntity } from './price.entity.js';

@ObjectType()
export class PriceTier {
  @Field(() => ID) id!: string;
  @Field(() => Int) minQuantity!: number;
  @Field(() => Int, { nullable: true, description: 'null: no upper bound' }) maxQuantity?: number | null;
  @Field(() => Money) price!: Money;
}

@ObjectType()
export class CustomerPrice {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) customerGroupId?: string | null;
  @Field(() => Money) price!: Money;
}

@ObjectType({ description: 'A price valid from startsAt (inclusive) until endsAt (exclusive)' })
export class ScheduledPrice {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Money) price!: Money;
  @Field(() => Money, { nullable: true }) compareAt?: Money | null;
  @Field() startsAt!: Date;
  @Field(() => Date, { nullable: true }) endsAt?: Date | null;
  @Field({ description: 'the window contains the present instant' }) active!: boolean;
  @Field() createdAt!: Date;
}

@ObjectType({ description: "Every price source of a product; the product's own price is the base of its currency unless `prices` has that currency" })
export class ProductPricing {
  @Field(() => ID, { description: 'the product id' }) id!: string;
  @Field(() => Money, { nullable: true }) basePrice?: Money | null;
  @Field(() => [Money]) prices!: Money[];
  @Field(() => [PriceTier]) tiers!: PriceTier[];
  @Field(() => [CustomerPrice]) customerPrices!: CustomerPrice[];
  @Field(() => [ScheduledPrice]) scheduledPrices!: ScheduledPrice[];
}

@ObjectType({ description: 'The price one customer pays for a quantity of a product in a currency at an instant' })
export class EffectivePrice {
  @Field(() => ID, { description: 'the product id' }) id!: string;
  @Field(() => Int) quantity!: number;
  @Field() currency!: string;
  @Field(() => Int, { description: 'unit price' }) amount!: number;
  @Field() formatted!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number | null;
  @Field(() => String, { nullable: true }) compareAtFormatted?: string | null;
  @Field(() => Int, { description: 'amount × quantity' }) total!: number;
  @Field() totalFormatted!: string;
  @Field({ description: 'customer, customer_group, scheduled, tier or base' }) source!: string;
  @Field(() => ID, { nullable: true, description: 'the customer price, scheduled price or tier that applied' }) sourceId?: string | null;
  @Field({ description: 'the instant the price is for' }) at!: Date;
}

@ObjectType()
export class PriceError {
  @Field(() => ID) productId!: string;
  @Field() code!: string;
  @Field() message!: string;
}

@ObjectType()
export class EffectivePriceList {
  @Field(() => [EffectivePrice]) items!: EffectivePrice[];
  @Field(() => [PriceError], { description: 'products without a price: PRODUCT_NOT_FOUND or INVALID_PRICE (no price in the currency)' }) errors!: PriceError[];
}

export function money(amount: number | string, currency: string, compareAt?: number | string | null): Money {
  const a = Number(amount);
  const c = compareAt == null ? undefined : Number(compareAt);
  return { amount: a, currency, compareAt: c, formatted: formatMoney(a, currency), compareAtFormatted: c == null ? undefined : formatMoney(c, currency) };
}

export const toTier = (t: PriceTierEntity): PriceTier => ({ id: t.id, minQuantity: t.minQuantity, maxQuantity: t.maxQuantity ?? null, price: money(t.amount, t.currency) });
export const toCustomerPrice = (c: CustomerPriceEntity): CustomerPrice => ({
  id: c.id,
  customerId: c.customerId ?? null,
  customerGroupId: c.customerGroupId ?? null,
  price: money(c.amount, c.currency),
});
export const toCurrencyPrice = (p: ProductPriceEntity): Money => money(p.amount, p.currency, p.compareAtAmount);
export function toScheduledPrice(s: ScheduledPriceEntity, now = new Date()): ScheduledPrice {
  return {
    id: s.id,
    productId: s.productId,
    name: s.name ?? null,
    price: money(s.amount, s.currency),
    compareAt: s.compareAtAmount == null ? null : money(s.compareAtAmount, s.currency),
    startsAt: s.startsAt,
    endsAt: s.endsAt ?? null,
    active: s.startsAt.getTime() <= now.getTime() && (s.endsAt == null || s.endsAt.getTime() > now.getTime()),
    createdAt: s.createdAt,
  };
}
