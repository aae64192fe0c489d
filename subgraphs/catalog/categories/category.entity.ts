import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { ProductEntity } from '../products/product.entity.js';

export interface CategorySeo {
  title?: string;
  description?: string;
}

/**
 * A node of the app's category tree. `parentId` null is a root; `position` orders siblings.
 * The parent foreign key refuses (restrict) removing a node that still has children, even when a
 * child is attached concurrently with the delete.
 */
@Entity({ tableName: 'categories' })
@Unique({ properties: ['appId', 'environment', 'slug'] })
@Index({ properties: ['appId', 'environment', 'parentId', 'position'] })
export class CategoryEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('cat');

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 200 })
  slug!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @ManyToOne({ entity: () => CategoryEntity, mapToPk: true, nullable: true, deleteRule: 'restrict', joinColumn: 'parent_id' })
  parentId?: string | null;

  @Property({ type: 'integer', default: 0 })
  position: number & Opt = 0;

  @Property({ type: 'json', nullable: true })
  seo?: CategorySeo | null;

  @Property({ type: 'json', nullable: true })
  metadata?: Record<string, unknown> | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** What a category read shows (toCategory), as a plain object (the entity is one too). */
export type CategoryRow = Pick<CategoryEntity, 'id' | 'name' | 'slug' | 'description' | 'parentId' | 'position' | 'seo' | 'metadata' | 'createdAt' | 'updatedAt'>;

/**
 * A product assigned to a category (many to many). Removing the category or permanently deleting
 * the product removes the assignment; soft-deleted products are filtered out on read.
 */
@Entity({ tableName: 'product_categories' })
@Index({ properties: ['productId'] })
export class ProductCategoryEntity extends AppScopedEntity {
  @ManyToOne({ entity: () => CategoryEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'category_id' })
  categoryId!: string;

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
