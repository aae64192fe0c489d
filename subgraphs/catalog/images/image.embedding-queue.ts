// The visual-search embedding job as an image write enqueues it (in the write's transaction): its
// kind and payload. The image aggregate owns the enqueue; vision/embedding.job.ts runs the kind, so
// vision reads images and images never import vision.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob } from '../../../lib/jobs/index.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';

export const EMBEDDING_JOB = 'catalog.images.embedding';

export interface EmbeddingJobPayload extends AppPartition {
  imageId: string;
  objectKey: string;
}

export async function enqueueEmbedding(em: EntityManager, p: EmbeddingJobPayload): Promise<void> {
  await enqueueJob<EmbeddingJobPayload>(em, 'catalog', { kind: EMBEDDING_JOB, payload: p, dedupeKey: `embedding:${p.imageId}` });
}
