// The API shape of a product. It differs from the row (money objects with `formatted`), so the
// entity and the GraphQL type are separate classes joined by toProduct().
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { ProductEntity } from './product.entity.js';

@ObjectType({ description: 'Money in the smallest currency unit' })
export class Money {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number;
  @Field({ description: 'e.g. "$19.99"' }) formatted!: string;
  @Field({ nullable: true }) compareAtFormatted?: string;
}

@ObjectType('App')
@Directive('@key(fields: "id")')
export class AppRef {
  @Field(() => ID) id!: string;
}

@Directive('@key(fields: "id")')
@ObjectType()
export class Product {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() sku!: string;
  @Field({ nullable: true }) description?: string;
  @Field() status!: string;
  @Field() type!: string;
  @Field(() => Money, { nullable: true }) price?: Money;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  /** owning app: resolved by the platform subgraph */
  @Field(() => AppRef) app!: AppRef;
}

@ObjectType()
export class ProductPage {
  @Field(() => [Product]) items!: Product[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency}`;
  }
}

export function toProduct(e: ProductEntity): Product {
  const p = new Product();
  p.id = e.id;
  p.name = e.name;
  p.sku = e.sku;
  p.description = e.description ?? undefined;
  p.status = e.status;
  p.type = e.type;
  if (e.priceAmount != null && e.priceCurrency) {
    const amount = Number(e.priceAmount);
    const compareAt = e.compareAtAmount != null ? Number(e.compareAtAmount) : undefined;
    p.price = {
      amount,
      currency: e.priceCurrency,
      compareAt,
      formatted: formatMoney(amount, e.priceCurrency),
      compareAtFormatted: compareAt != null ? formatMoney(compareAt, e.priceCurrency) : undefined,
    };
  }
  p.attributes = e.attributes ?? undefined;
  p.metadata = e.metadata ?? undefined;
  p.createdAt = e.createdAt;
  p.updatedAt = e.updatedAt;
  p.app = { id: e.appId };
  return p;
}
