// Raw statements of visual-search embeddings; each names the app partition explicitly (the ORM's
// tenant filter does not apply to raw SQL, and the embedding job and the upload-token search carry
// no tenant context).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { Box } from '../../../lib/vision/index.js';
import type { EmbeddingStatus } from '../images/image.rules.js';
import { fromBytes, toBytes, type IndexedVector } from './scan.calc.js';

const T = '"catalog"."product_image_embeddings"';

export interface RegionEmbedding {
  region: number;
  /** clockwise degrees the whole image was turned (0 for the image itself and for objects) */
  rotation: number;
  label: string | null;
  confidence: number | null;
  bbox: Box | null;
  vector: Float32Array;
}

/**
 * Replace the embeddings of one image and mark it `ready`, under the image row's lock; false (and
 * nothing written) when the image no longer exists.
 */
export async function replaceEmbeddings(em: EntityManager, part: AppPartition, imageId: string, model: string, regions: readonly RegionEmbedding[]): Promise<boolean> {
  return em.transactional(async (tx) => {
    const rows = (await tx.execute(`select product_id from "catalog"."product_images" where id = ? and app_id = ? and environment = ? for update`, [
      imageId,
      part.appId,
      part.environment,
    ])) as { product_id: string }[];
    if (!rows.length) return false;
    await tx.execute(`delete from ${T} where image_id = ?`, [imageId]);
    if (regions.length) {
      const values = regions.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, now())').join(', ');
      const params = regions.flatMap((r) => [
        imageId,
        r.region,
        r.rotation,
        part.appId,
        part.environment,
        rows[0].product_id,
        r.label,
        r.confidence,
        r.bbox ? JSON.stringify(r.bbox) : null,
        model,
        toBytes(r.vector),
      ]);
      await tx.execute(`insert into ${T} (image_id, region, rotation, app_id, environment, product_id, label, confidence, bbox, model, vector, created_at) values ${values}`, params);
    }
    await tx.execute(`update "catalog"."product_images" set embedding_status = 'ready', updated_at = now() where id = ?`, [imageId]);
    return true;
  });
}

export async function markEmbeddingStatus(em: EntityManager, imageId: string, status: EmbeddingStatus): Promise<void> {
  await em.execute(`update "catalog"."product_images" set embedding_status = ?, updated_at = now() where id = ?`, [status, imageId]);
}

/**
 * Every vector of the partition's active, live products made by `model`: what one visual search
 * scans. A soft-deleted, draft or archived product is not found.
 */
export async function partitionVectors(em: EntityManager, part: AppPartition, model: string): Promise<IndexedVector[]> {
  const rows = (await em.execute(
    `select e.image_id, e.product_id, e.region, e.rotation, e.label, e.vector
       from ${T} e join "catalog"."products" p on p.id = e.product_id and p.deleted_at is null and p.status = 'active'
      where e.app_id = ? and e.environment = ? and e.model = ?`,
    [part.appId, part.environment, model],
  )) as { image_id: string; product_id: string; region: number; rotation: number; label: string | null; vector: Buffer }[];
  return rows.map((r) => ({ imageId: r.image_id, productId: r.product_id, region: r.region, rotation: r.rotation, label: r.label, vector: fromBytes(r.vector) }));
}
