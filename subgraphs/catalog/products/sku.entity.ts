import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { TenantScoped } from '../../../lib/tenant-entity.js';
import type { Environment } from '../../../lib/tenant.js';

/**
 * The SKU namespace of an app partition, shared by products and variants: one row per SKU in use
 * (soft-deleted products included), so PostgreSQL's primary key decides which of two concurrent
 * writers of one SKU wins, across both tables.
 */
@Entity({ tableName: 'skus' })
@TenantScoped({ appId: 'appId', environment: 'environment' })
export class SkuEntity {
  @PrimaryKey({ length: 64 })
  appId!: string;

  @PrimaryKey({ length: 8 })
  environment!: Environment;

  @PrimaryKey({ length: 200 })
  sku!: string;

  /** the product or variant holding it */
  @Property({ length: 32 })
  ownerId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
