import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class MoneyInput {
  @Field(() => Int, { description: 'smallest currency unit (cents)' }) amount!: number;
  @Field({ description: 'ISO 4217 code, e.g. USD' }) currency!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number | null;
}

@InputType()
export class CostInput {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
}

@InputType()
export class InventoryInput {
  @Field(() => Int, { nullable: true }) quantity?: number | null;
  @Field({ nullable: true }) trackStock?: boolean;
  @Field({ nullable: true }) allowBackorder?: boolean;
  @Field(() => Int, { nullable: true }) lowStockThreshold?: number | null;
}

@InputType()
export class WeightInput {
  @Field(() => Float) value!: number;
  @Field({ description: 'g, kg, lb, oz' }) unit!: string;
}

@InputType()
export class DimensionsInput {
  @Field(() => Float) length!: number;
  @Field(() => Float) width!: number;
  @Field(() => Float) height!: number;
  @Field({ description: 'mm, cm, m, in, ft' }) unit!: string;
}

@InputType()
export class ProductSeoInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) slug?: string | null;
}

@InputType()
export class BundleItemInput {
  @Field(() => ID) productId!: string;
  @Field(() => Int, { defaultValue: 1 }) quantity!: number;
  @Field({ defaultValue: true }) required!: boolean;
}

@InputType()
export class CreateProductInput {
  @Field() name!: string;
  @Field() sku!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) shortDescription?: string | null;
  @Field(() => String, { nullable: true, description: 'active, draft (default), archived' }) status?: string | null;
  @Field(() => String, { nullable: true, description: 'physical (default), digital, service, bundle' }) type?: string | null;
  @Field(() => MoneyInput, { nullable: true }) price?: MoneyInput | null;
  @Field(() => CostInput, { nullable: true }) cost?: CostInput | null;
  @Field(() => InventoryInput, { nullable: true }) inventory?: InventoryInput | null;
  @Field(() => WeightInput, { nullable: true }) weight?: WeightInput | null;
  @Field(() => DimensionsInput, { nullable: true }) dimensions?: DimensionsInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown> | null;
  @Field(() => ProductSeoInput, { nullable: true }) seo?: ProductSeoInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => [BundleItemInput], { nullable: true, description: 'type bundle: its components' }) bundleItems?: BundleItemInput[] | null;
  @Field(() => String, { nullable: true, description: 'type bundle: fixed (default), sum, discounted' }) bundlePricing?: string | null;
  @Field(() => [ID], { nullable: true, description: 'categories to assign (relationships.categories on REST)' }) categoryIds?: string[] | null;
}

/** PATCH: only the fields given change; null clears a nullable field. */
@InputType()
export class UpdateProductInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) sku?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) shortDescription?: string | null;
  @Field(() => String, { nullable: true }) status?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => MoneyInput, { nullable: true }) price?: MoneyInput | null;
  @Field(() => CostInput, { nullable: true }) cost?: CostInput | null;
  @Field(() => InventoryInput, { nullable: true }) inventory?: InventoryInput | null;
  @Field(() => WeightInput, { nullable: true }) weight?: WeightInput | null;
  @Field(() => DimensionsInput, { nullable: true }) dimensions?: DimensionsInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown> | null;
  @Field(() => ProductSeoInput, { nullable: true }) seo?: ProductSeoInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => [BundleItemInput], { nullable: true }) bundleItems?: BundleItemInput[] | null;
  @Field(() => String, { nullable: true }) bundlePricing?: string | null;
}

@InputType()
export class ProductOptionInput {
  @Field() name!: string;
  @Field(() => [String]) values!: string[];
}

@InputType({ description: 'GET /v1/products filters' })
export class ProductFilterInput {
  @Field(() => String, { nullable: true }) status?: string | null;
  @Field(() => String, { nullable: true, description: 'category id or slug' }) category?: string | null;
  @Field(() => Boolean, { nullable: true }) inStock?: boolean | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => Int, { nullable: true }) priceMin?: number | null;
  @Field(() => Int, { nullable: true }) priceMax?: number | null;
  @Field(() => Date, { nullable: true }) createdAfter?: Date | null;
  @Field(() => String, { nullable: true, description: 'full-text query over name, sku, description' }) search?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'soft-deleted products instead of live ones' }) deleted?: boolean | null;
}
