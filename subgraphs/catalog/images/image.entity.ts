import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { ProductEntity } from '../products/product.entity.js';
import type { EmbeddingStatus, ThumbnailStatus } from './image.rules.js';

/**
 * One image of a product: the original as uploaded (object `objectKey`), its pixel size (as
 * displayed, EXIF orientation applied) and its place in the product's gallery. Thumbnails are
 * made by a job (image.thumbnails.ts) under keys derived from the image id, its visual-search
 * embeddings by another (vision/embedding.job.ts). At most one image of a
 * product is primary (partial unique index, written in the migration).
 */
@Entity({ tableName: 'product_images' })
@Index({ properties: ['productId', 'position'] })
export class ProductImageEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id!: string;

  @ManyToOne({ entity: () => ProductEntity, mapToPk: true, deleteRule: 'cascade', joinColumn: 'product_id' })
  productId!: string;

  @Property({ type: 'text' })
  objectKey!: string;

  @Property({ length: 32 })
  contentType!: string;

  @Property({ type: 'integer' })
  bytes!: number;

  @Property({ length: 64 })
  sha256!: string;

  @Property({ type: 'integer' })
  width!: number;

  @Property({ type: 'integer' })
  height!: number;

  @Property({ type: 'text', nullable: true })
  altText: string | null = null;

  @Property({ type: 'integer' })
  position!: number;

  @Property({ type: 'boolean' })
  isPrimary: boolean & Opt = false;

  @Property({ length: 12 })
  thumbnailStatus: ThumbnailStatus & Opt = 'pending';

  @Property({ length: 12 })
  embeddingStatus: EmbeddingStatus & Opt = 'pending';

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
