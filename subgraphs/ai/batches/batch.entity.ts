// A batch of texts for one analysis operation, processed by the kernel job queue (batch.job.ts).
// Inputs and results live on the row (JSON), so GET /ai/v1/batches/:id answers from one read.
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

export const BATCH_OPERATIONS = ['sentiment', 'entities', 'key_phrases', 'language', 'summarize', 'moderation'] as const;
export type BatchOperation = (typeof BATCH_OPERATIONS)[number];
export const BATCH_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

@Entity({ tableName: 'batches' })
export class AiBatchEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('bat');

  @Enum({ items: () => BATCH_OPERATIONS })
  operation!: BatchOperation;

  @Enum({ items: () => BATCH_STATUSES, default: 'queued' })
  status: BatchStatus & Opt = 'queued';

  /** the registered user who submitted it */
  @Property({ length: 255 })
  userUniqueId!: string;

  @Property({ type: 'json' })
  inputs!: string[];

  /** operation options (types, max_phrases, max_length, categories, language) */
  @Property({ type: 'json' })
  options: Record<string, unknown> & Opt = {};

  @Property({ type: 'json', nullable: true })
  results?: unknown[] | null;

  @Property({ type: 'integer' })
  processed: number & Opt = 0;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;
}
