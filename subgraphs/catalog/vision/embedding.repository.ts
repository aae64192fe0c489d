// Raw statements of visual-search embeddings; each names the app partition explicitly (the ORM's
// tenant filter does not apply to raw SQL, and the embedding job and the upload-token search carry
// no tenant context).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { Box } from '../../../lib/vision/index.js';
import { sqlRows } from '../../../lib/jobs/sql.js';
import type { SqlClient } from '../../../lib/jobs/index.js';
import type { EmbeddingStatus } from '../images/image.rules.js';
import { ANY_TEXT, jsonList } from '../sql.js';
import { fromBytes, quantize, rowKey, toBytes, type IndexedVector } from './scan.calc.js';

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
      // clock_timestamp(), not the transaction's start: the newest row then moves with every insert (partitionVersion)
      const values = regions.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, clock_timestamp())').join(', ');
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

/** A partition's vectors as read, with each image's stamp (imageStamps) to refresh them by. */
export interface PartitionRows {
  rows: IndexedVector[];
  stamps: Map<string, string>;
}

/**
 * Every vector of the partition made by `model`, whatever its product's state (the search keeps the
 * active products' rows: activeProductIds), or only those of `imageIds`. What PartitionVectors caches.
 */
export async function partitionVectors(em: EntityManager, part: AppPartition, model: string, imageIds?: readonly string[]): Promise<PartitionRows> {
  const only = imageIds ? ` and image_id in ${ANY_TEXT}` : '';
  const rows = (await em.execute(
    `select image_id, product_id, region, rotation, label, vector, created_at::text as at from ${T} where app_id = ? and environment = ? and model = ?${only}`,
    imageIds ? [part.appId, part.environment, model, jsonList(imageIds)] : [part.appId, part.environment, model],
  )) as { image_id: string; product_id: string; region: number; rotation: number; label: string | null; vector: Buffer; at: string }[];
  // an image's stamp as imageStamps writes it: its rows' newest created_at and their count
  const newest = new Map<string, { at: string; n: number }>();
  for (const r of rows) {
    const s = newest.get(r.image_id);
    if (!s) newest.set(r.image_id, { at: r.at, n: 1 });
    else {
      s.n++;
      if (r.at > s.at) s.at = r.at;
    }
  }
  return {
    rows: rows.map((r) => ({ imageId: r.image_id, productId: r.product_id, region: r.region, rotation: r.rotation, label: r.label, ...quantize(fromBytes(r.vector)) })),
    stamps: new Map([...newest].map(([id, s]) => [id, `${s.at}/${s.n}`])),
  };
}

/** The float32 vectors of the given rows (by rowKey), for rescoring a scan's shortlist; a row gone since is absent. */
export async function exactVectors(em: EntityManager, part: AppPartition, model: string, keys: readonly { imageId: string; region: number }[]): Promise<Map<string, Float32Array>> {
  if (!keys.length) return new Map();
  const wanted = jsonList([...new Map(keys.map((k) => [rowKey(k), { i: k.imageId, r: k.region }])).values()]);
  const rows = (await em.execute(
    `select image_id, region, vector from ${T} where app_id = ? and environment = ? and model = ?
        and (image_id, region) in (select x->>'i', (x->>'r')::smallint from jsonb_array_elements(?::jsonb) x)`,
    [part.appId, part.environment, model, wanted],
  )) as { image_id: string; region: number; vector: Buffer }[];
  return new Map(rows.map((r) => [rowKey({ imageId: r.image_id, region: r.region }), fromBytes(r.vector)]));
}

/**
 * Each image's stamp in the partition's vectors of `model`: its rows' newest created_at and their
 * count. An image's rows are replaced whole (replaceEmbeddings), each insert with clock_timestamp(),
 * so a stamp moves whenever the image's rows change. Reads no vector.
 */
export async function imageStamps(em: EntityManager, part: AppPartition, model: string): Promise<Map<string, string>> {
  const rows = (await em.execute(
    `select image_id, max(created_at)::text || '/' || count(*) as stamp from ${T} where app_id = ? and environment = ? and model = ? group by image_id`,
    [part.appId, part.environment, model],
  )) as { image_id: string; stamp: string }[];
  return new Map(rows.map((r) => [r.image_id, r.stamp]));
}

/**
 * What the partition's vectors of `model` are now, in one cheap statement: their count and newest
 * row. Rows are only inserted (with clock_timestamp()) and deleted (an image's rows are replaced
 * whole), so any change moves one of the two.
 */
export async function partitionVersion(em: EntityManager, part: AppPartition, model: string): Promise<string> {
  const [r] = (await em.execute(`select count(*) || '/' || coalesce(max(created_at)::text, '') as version from ${T} where app_id = ? and environment = ? and model = ?`, [
    part.appId,
    part.environment,
    model,
  ])) as { version: string }[];
  return r.version;
}

/** Ids of the partition's active, live products: the only ones visual search finds. */
export async function activeProductIds(em: EntityManager, part: AppPartition): Promise<Set<string>> {
  const rows = (await em.execute(`select id from "catalog"."products" where app_id = ? and environment = ? and status = 'active' and deleted_at is null`, [
    part.appId,
    part.environment,
  ])) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** A dead-lettered embedding job's image, in the job's dead-letter transaction (a pg client or an EntityManager). */
export async function markEmbeddingFailed(tx: SqlClient, imageId: string): Promise<void> {
  await sqlRows(tx, `update "catalog"."product_images" set embedding_status = 'failed', updated_at = now() where id = $1`, [imageId]);
}
