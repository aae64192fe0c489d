import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Weight } from '../products/product.type.js';
import type { VariantRow } from './variant.repository.js';

@ObjectType()
export class PriceModifier {
  @Field({ description: 'fixed (minor units) or percentage (whole percent); negative lowers the price' }) type!: string;
  @Field(() => Int) amount!: number;
}

@ObjectType()
export class VariantPrice {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field() formatted!: string;
}

@ObjectType()
export class VariantInventory {
  @Field(() => Int) quantity!: number;
  @Field() trackStock!: boolean;
  @Field() inStock!: boolean;
}

@ObjectType()
export class Variant {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field() name!: string;
  @Field() sku!: string;
  @Field(() => GraphQLJSONObject, { description: 'option name → value' }) options!: Record<string, string>;
  @Field(() => PriceModifier, { nullable: true }) priceModifier?: PriceModifier | null;
  @Field(() => VariantInventory) inventory!: VariantInventory;
  @Field(() => Weight, { nullable: true }) weight?: Weight | null;
  @Field(() => Int) position!: number;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

export function toVariant(v: VariantRow): Variant {
  return Object.assign(new Variant(), {
    id: v.id,
    productId: v.productId,
    name: v.name,
    sku: v.sku,
    options: v.options,
    priceModifier: v.priceModifierType ? { type: v.priceModifierType, amount: Number(v.priceModifierAmount ?? 0) } : null,
    inventory: { quantity: v.inventoryQuantity, trackStock: v.trackStock, inStock: !v.trackStock || v.inventoryQuantity > 0 },
    weight: v.weight ?? null,
    position: v.position,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  });
}
