import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppKeyedEntity } from '../../../lib/tenant-entity.js';

/**
 * The SKU namespace of an app partition, shared by products and variants: one row per SKU in use
 * (soft-deleted products included), so PostgreSQL's primary key decides which of two concurrent
 * writers of one SKU wins, across both tables.
 */
@Entity({ tableName: 'skus' })
export class SkuEntity extends AppKeyedEntity {
  @PrimaryKey({ length: 200 })
  sku!: string;

  /** the product or variant holding it */
  @Property({ length: 32 })
  ownerId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
