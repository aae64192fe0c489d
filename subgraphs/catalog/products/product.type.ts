// The API shape of a product. It differs from the row (money objects with `formatted`, derived
// stock flags), so the entity and the GraphQL type are separate classes joined by toProduct().
import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { ProductEntity } from './product.entity.js';
import { formatMoney, inventoryFlags } from './product.rules.js';

export { formatMoney } from './product.rules.js';

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType({ description: 'Money in the smallest currency unit' })
export class Money {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number;
  @Field({ description: 'formatted for the currency with Intl.NumberFormat, e.g. "$19.99", "¥1,500"' }) formatted!: string;
  @Field({ nullable: true }) compareAtFormatted?: string;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType({ description: 'Cost of goods in the smallest currency unit' })
export class Cost {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field() formatted!: string;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class Inventory {
  @Field(() => Int) quantity!: number;
  @Field() trackStock!: boolean;
  @Field() allowBackorder!: boolean;
  @Field(() => Int, { nullable: true }) lowStockThreshold?: number | null;
  @Field(() => Int, { description: 'quantity - reserved, never below 0' }) available!: number;
  @Field(() => Int) reserved!: number;
  @Field({ description: 'available > 0, or stock not tracked, or backorders allowed' }) inStock!: boolean;
  @Field({ description: 'tracked and available below low_stock_threshold' }) lowStock!: boolean;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class Weight {
  @Field(() => Float) value!: number;
  @Field() unit!: string;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class Dimensions {
  @Field(() => Float) length!: number;
  @Field(() => Float) width!: number;
  @Field(() => Float) height!: number;
  @Field() unit!: string;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class ProductSeo {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) slug?: string;
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class ProductOption {
  @Field() name!: string;
  @Field(() => [String]) values!: string[];
}

// read from the product's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class BundleItem {
  @Field(() => ID) productId!: string;
  @Field(() => Int) quantity!: number;
  @Field() required!: boolean;
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
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) shortDescription?: string | null;
  @Field({ description: 'active, draft, archived' }) status!: string;
  @Field({ description: 'physical, digital, service, bundle' }) type!: string;
  @Field(() => Money, { nullable: true }) price?: Money | null;
  @Field(() => Cost, { nullable: true }) cost?: Cost | null;
  @Field(() => Inventory) inventory!: Inventory;
  @Field(() => Weight, { nullable: true }) weight?: Weight | null;
  @Field(() => Dimensions, { nullable: true }) dimensions?: Dimensions | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown> | null;
  @Field(() => ProductSeo, { nullable: true }) seo?: ProductSeo | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => [ProductOption], { description: 'option names and allowed values of the variants' }) options!: ProductOption[];
  @Field(() => [BundleItem], { nullable: true, description: 'components, for type bundle' }) bundleItems?: BundleItem[] | null;
  @Field(() => String, { nullable: true, description: 'for bundles: fixed (the bundle price), sum (of the components), discounted' }) bundlePricing?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'set while the product is soft-deleted' }) deletedAt?: Date | null;
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

/** What toProduct reads: an entity, or a plain row mapped by productRows (product.repository.ts, no ORM hydration). */
export type ProductData = Omit<ProductEntity, 'environment'> & Partial<Pick<ProductEntity, 'environment'>>;

export function toProduct(e: ProductData): Product {
  const p = new Product();
  p.id = e.id;
  p.name = e.name;
  p.sku = e.sku;
  p.description = e.description ?? null;
  p.shortDescription = e.shortDescription ?? null;
  p.status = e.status;
  p.type = e.type;
  p.price = null;
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
  p.cost = e.costAmount != null && e.costCurrency ? { amount: Number(e.costAmount), currency: e.costCurrency, formatted: formatMoney(Number(e.costAmount), e.costCurrency) } : null;
  p.inventory = {
    quantity: e.inventoryQuantity,
    trackStock: e.trackStock,
    allowBackorder: e.allowBackorder,
    lowStockThreshold: e.lowStockThreshold ?? null,
    reserved: e.inventoryReserved,
    ...inventoryFlags(e),
  };
  p.weight = e.weight ?? null;
  p.dimensions = e.dimensions ?? null;
  p.attributes = e.attributes ?? null;
  p.seo = e.seo ?? null;
  p.metadata = e.metadata ?? null;
  p.options = e.options ?? [];
  p.bundleItems = e.bundleItems ?? null;
  p.bundlePricing = e.bundlePricing ?? null;
  p.createdAt = e.createdAt;
  p.updatedAt = e.updatedAt;
  p.deletedAt = e.deletedAt ?? null;
  p.app = { id: e.appId };
  return p;
}
