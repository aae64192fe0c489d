import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { ProductEntity } from '../products/product.entity.js';
import type { CollectionRules } from './collection.rules.js';

export const COLLECTION_TYPES = ['manual', 'automated'] as const;
export const COLLECTION_STATUSES = ['active', 'draft', 'archived'] as const;
export type CollectionKind = (typeof COLLECTION_TYPES)[number];
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

export interface CollectionSeo {
  title?: string;
  description?: string;
}

/**
 * A product collection. Manual collections list products in collection_products (ordered by
 * position); automated ones hold `rules`, evaluated in SQL on every read, so membership follows
 * product changes without any re-indexing.
 */
@Entity({ tableName: 'collections' })
@Unique({ properties: ['appId', 'environment', 'slug'] })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class CollectionEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('col');

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 200 })
  slug!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Enum({ items: () => COLLECTION_TYPES })
  type!: CollectionKind;

  @Enum({ items: () => COLLECTION_STATUSES, default: 'active' })
  status: CollectionStatus & Opt = 'active';

  @Property({ type: 'timestamptz', nullable: true })
  startDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  endDate?: Date | null;

  @Property({ type: 'json', nullable: true })
  rules?: CollectionRules | null;

  @Property({ type: 'json', nullable: true })
  seo?: CollectionSeo | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** A product of a manual collection, at `position` (0 first). */
@Entity({ tableName: 'collection_products' })
@Index({ properties: ['collectionId', 'position'] })
@Index({ properties: ['productId'] })
export class CollectionProductEntity extends AppScopedEntity {
  @ManyToOne({ entity: () => CollectionEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'collection_id' })
  collectionId!: string;

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ type: 'integer' })
  position!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
