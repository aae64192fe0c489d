import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export const PRODUCT_TYPES = ['physical', 'digital', 'service', 'bundle'] as const;
export const BUNDLE_PRICINGS = ['fixed', 'sum', 'discounted'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export type ProductKind = (typeof PRODUCT_TYPES)[number];

export interface Weight {
  value: number;
  unit: string;
}
export interface Dimensions {
  length: number;
  width: number;
  height: number;
  unit: string;
}
export interface ProductSeo {
  title?: string;
  description?: string;
  slug?: string;
}
export interface ProductOption {
  name: string;
  values: string[];
}
export interface BundleItem {
  productId: string;
  quantity: number;
  required: boolean;
}

/**
 * A product of an app partition. The SKU is unique per partition twice over: the products'
 * own constraint, and the shared SKU registry (sku.entity.ts) that variants write too. A soft
 * deleted product (deletedAt set) keeps its SKU reserved until it is deleted permanently.
 */
@Entity({ tableName: 'products' })
@Unique({ properties: ['appId', 'environment', 'sku'] })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class ProductEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('prod');

  @Property({ length: 500 })
  name!: string;

  @Property({ length: 200 })
  sku!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'text', nullable: true })
  shortDescription?: string | null;

  @Enum({ items: () => PRODUCT_STATUSES, default: 'draft' })
  status: ProductStatus & Opt = 'draft';

  @Enum({ items: () => PRODUCT_TYPES, default: 'physical' })
  type: ProductKind & Opt = 'physical';

  @Property({ type: new BigIntType('number'), nullable: true })
  priceAmount?: number | null;

  @Property({ length: 3, nullable: true })
  priceCurrency?: string | null;

  @Property({ type: new BigIntType('number'), nullable: true })
  compareAtAmount?: number | null;

  @Property({ type: new BigIntType('number'), nullable: true })
  costAmount?: number | null;

  @Property({ length: 3, nullable: true })
  costCurrency?: string | null;

  @Property({ type: 'integer', default: 0 })
  inventoryQuantity: number & Opt = 0;

  @Property({ type: 'integer', default: 0 })
  inventoryReserved: number & Opt = 0;

  /** held by paid orders (committed reservations) until they are fulfilled: on hand, not available */
  @Property({ type: 'integer', default: 0 })
  inventoryCommitted: number & Opt = 0;

  @Property({ type: 'boolean', default: true })
  trackStock: boolean & Opt = true;

  @Property({ type: 'boolean', default: false })
  allowBackorder: boolean & Opt = false;

  @Property({ type: 'integer', nullable: true })
  lowStockThreshold?: number | null;

  @Property({ type: 'json', nullable: true })
  weight?: Weight | null;

  @Property({ type: 'json', nullable: true })
  dimensions?: Dimensions | null;

  @Property({ type: 'json', nullable: true })
  attributes?: Record<string, unknown> | null;

  @Property({ type: 'json', nullable: true })
  seo?: ProductSeo | null;

  @Property({ type: 'json', nullable: true })
  metadata?: Record<string, unknown> | null;

  /** the option names and allowed values its variants choose from (PUT /options) */
  @Property({ type: 'json', nullable: true })
  options?: ProductOption[] | null;

  /** components of a bundle (type bundle) */
  @Property({ type: 'json', nullable: true })
  bundleItems?: BundleItem[] | null;

  @Property({ length: 20, nullable: true })
  bundlePricing?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}
