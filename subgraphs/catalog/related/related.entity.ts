import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { ProductEntity } from '../products/product.entity.js';

export const RELATION_TYPES = ['cross_sells', 'up_sells', 'accessories'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** One related product of a product, by kind and position. Permanent deletes of either side cascade. */
@Entity({ tableName: 'product_relations' })
@Index({ properties: ['productId', 'type', 'position'] })
export class ProductRelationEntity extends AppScopedEntity {
  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @PrimaryKey({ length: 20 })
  type!: RelationType;

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'related_id' })
  relatedId!: string;

  @Property({ type: 'integer' })
  position!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
