// The price sources of a product, one table each. Every amount is an integer in the currency's
// smallest unit. The effective price is computed from these in one place: pricing.service.ts.
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { ProductEntity } from '../products/product.entity.js';

/** A product's base price in one currency (PUT /products/:id/prices); one row per currency. */
@Entity({ tableName: 'product_prices' })
@Unique({ properties: ['productId', 'currency'] })
export class ProductPriceEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('prc');

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ length: 3 })
  currency!: string;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: new BigIntType('number'), nullable: true })
  compareAtAmount?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** A quantity tier: the unit price for min_quantity..max_quantity (null: no upper bound). */
@Entity({ tableName: 'price_tiers' })
@Index({ properties: ['productId', 'currency', 'minQuantity'] })
export class PriceTierEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('tier');

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ length: 3 })
  currency!: string;

  @Property({ type: 'integer' })
  minQuantity!: number;

  @Property({ type: 'integer', nullable: true })
  maxQuantity?: number | null;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** A price for one customer or one customer group (exactly one of the two ids is set). */
@Entity({ tableName: 'customer_prices' })
@Index({ properties: ['productId', 'currency', 'customerId'] })
@Index({ properties: ['productId', 'currency', 'customerGroupId'] })
export class CustomerPriceEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('cpr');

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ length: 200, nullable: true })
  customerId?: string | null;

  @Property({ length: 200, nullable: true })
  customerGroupId?: string | null;

  @Property({ length: 3 })
  currency!: string;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** A price valid from starts_at (inclusive) until ends_at (exclusive; null: no end). */
@Entity({ tableName: 'scheduled_prices' })
@Index({ properties: ['productId', 'currency', 'startsAt'] })
export class ScheduledPriceEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('sch');

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ length: 200, nullable: true })
  name?: string | null;

  @Property({ length: 3 })
  currency!: string;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: new BigIntType('number'), nullable: true })
  compareAtAmount?: number | null;

  @Property({ type: 'timestamptz' })
  startsAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  endsAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
