import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { ProductImageEntity } from '../images/image.entity.js';

/**
 * One image embedding of visual search: region 0 is the whole product image, regions 1–3 the whole
 * image turned by 90°, 180° and 270° (`rotation`), the next regions the objects the detector found
 * in it (label, score and box kept). `vector` is the lib/vision embedding as
 * float32 little-endian bytes (1344 × 4). Rows go with their image (foreign key, cascade), so a
 * deleted image, or a product deleted permanently, is never found again. Written and read by raw
 * statements only (embedding.repository.ts), each naming the app partition.
 */
@Entity({ tableName: 'product_image_embeddings' })
@Index({ properties: ['appId', 'environment'] })
export class ProductImageEmbeddingEntity extends AppScopedEntity {
  @ManyToOne({ entity: () => ProductImageEntity, mapToPk: true, primary: true, deleteRule: 'cascade', joinColumn: 'image_id' })
  imageId!: string;

  @PrimaryKey({ type: 'smallint' })
  region!: number;

  /** clockwise degrees a whole-image row was turned; 0 for the image as uploaded and for objects */
  @Property({ type: 'smallint' })
  rotation: number & Opt = 0;

  @Property({ length: 32 })
  productId!: string;

  @Property({ length: 32, nullable: true })
  label: string | null = null;

  @Property({ type: 'real', nullable: true })
  confidence: number | null = null;

  /** { x, y, width, height } in pixels of the image as displayed; null for the whole image */
  @Property({ type: 'json', nullable: true })
  bbox: { x: number; y: number; width: number; height: number } | null = null;

  /** the embedding method (VISION_METHODS.embedding): a scan compares only vectors of one method */
  @Property({ length: 120 })
  model!: string;

  @Property({ type: 'blob' })
  vector!: Buffer;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
