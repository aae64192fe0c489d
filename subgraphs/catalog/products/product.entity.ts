import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export const PRODUCT_TYPES = ['physical', 'digital', 'service', 'bundle'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export type ProductKind = (typeof PRODUCT_TYPES)[number];

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
  description?: string;

  @Enum({ items: () => PRODUCT_STATUSES, default: 'draft' })
  status: ProductStatus & Opt = 'draft';

  @Enum({ items: () => PRODUCT_TYPES, default: 'physical' })
  type: ProductKind & Opt = 'physical';

  @Property({ type: 'bigint' , nullable: true })
  priceAmount?: number;

  @Property({ length: 3, nullable: true })
  priceCurrency?: string;

  @Property({ type: 'bigint', nullable: true })
  compareAtAmount?: number;

  @Property({ type: 'json', nullable: true })
  attributes?: Record<string, unknown>;

  @Property({ type: 'json', nullable: true })
  metadata?: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date;
}
