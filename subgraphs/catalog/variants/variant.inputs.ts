import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { WeightInput } from '../products/product.inputs.js';

@InputType()
export class PriceModifierInput {
  @Field({ description: 'fixed or percentage' }) type!: string;
  @Field(() => Int, { description: 'minor units (fixed) or whole percent (percentage); may be negative' }) amount!: number;
}

@InputType()
export class VariantInventoryInput {
  @Field(() => Int, { nullable: true }) quantity?: number | null;
  @Field({ nullable: true }) trackStock?: boolean;
}

@InputType()
export class CreateVariantInput {
  @Field(() => String, { nullable: true, description: 'default: the option values joined with " / "' }) name?: string | null;
  @Field() sku!: string;
  @Field(() => GraphQLJSONObject, { description: 'option name → value, matching the product options' }) options!: Record<string, unknown>;
  @Field(() => PriceModifierInput, { nullable: true }) priceModifier?: PriceModifierInput | null;
  @Field(() => VariantInventoryInput, { nullable: true }) inventory?: VariantInventoryInput | null;
  @Field(() => WeightInput, { nullable: true }) weight?: WeightInput | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
}

@InputType()
export class UpdateVariantInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) sku?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => PriceModifierInput, { nullable: true }) priceModifier?: PriceModifierInput | null;
  @Field(() => VariantInventoryInput, { nullable: true }) inventory?: VariantInventoryInput | null;
  @Field(() => WeightInput, { nullable: true }) weight?: WeightInput | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
}
