import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { ProductEntity, type Weight } from '../products/product.entity.js';

export const MODIFIER_TYPES = ['fixed', 'percentage'] as const;
export type ModifierType = (typeof MODIFIER_TYPES)[number];

/** A variant of a product: one combination of its option values, with its own SKU and stock. */
@Entity({ tableName: 'product_variants' })
@Index({ properties: ['productId', 'position'] })
export class VariantEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('var');

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ length: 500 })
  name!: string;

  @Property({ length: 200 })
  sku!: string;

  /** option name → value, each allowed by the product's options */
  @Property({ type: 'json' })
  options!: Record<string, string>;

  @Property({ length: 10, nullable: true })
  priceModifierType?: ModifierType | null;

  /** minor units for `fixed`, whole percent for `percentage`; negative lowers the price */
  @Property({ type: new BigIntType('number'), nullable: true })
  priceModifierAmount?: number | null;

  @Property({ type: 'integer', default: 0 })
  inventoryQuantity: number & Opt = 0;

  @Property({ type: 'integer', default: 0 })
  inventoryReserved: number & Opt = 0;

  @Property({ type: 'integer', default: 0 })
  inventoryCommitted: number & Opt = 0;

  @Property({ type: 'boolean', default: true })
  trackStock: boolean & Opt = true;

  @Property({ type: 'json', nullable: true })
  weight?: Weight | null;

  @Property({ type: 'integer', default: 0 })
  position: number & Opt = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
