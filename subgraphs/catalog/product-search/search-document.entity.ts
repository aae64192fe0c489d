import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';

/**
 * The search document of a product, as the indexing job last built it (null `doc`: the product is
 * gone or hidden). `seq` grows with every write across the catalog (a sequence), so each process's
 * in-memory engine catches up by reading the rows past the last seq it applied.
 */
@Entity({ tableName: 'product_search_documents' })
@Index({ properties: ['appId', 'environment', 'seq'] })
export class ProductSearchDocumentEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  productId!: string;

  @Property({ type: 'bigint' })
  seq!: string;

  @Property({ type: 'json', nullable: true })
  doc?: Record<string, unknown> | null;

  @Property({ type: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
