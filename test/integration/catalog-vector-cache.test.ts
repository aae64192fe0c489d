// The visual-search vector cache (vision/vector-cache.ts) on a scratch database migrated like the
// catalog subgraph's: a changed partition is refreshed by reading only its new and replaced images'
// vectors, and after every kind of change (an image added, its vectors replaced, an image deleted,
// another partition's writes, most images changed at once) the cached rows equal a fresh read.
import type pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { exactVectors, partitionVectors, replaceEmbeddings, type RegionEmbedding } from '../../subgraphs/catalog/vision/embedding.repository.js';
import { PartitionVectors } from '../../subgraphs/catalog/vision/vector-cache.js';
import { quantize, type IndexedVector } from '../../subgraphs/catalog/vision/scan.calc.js';
import { catalogScratch, type CatalogScratch } from '../harness/catalog-db.js';

let db: CatalogScratch;
const part = { appId: 'app_vec', environment: 'live' as const };
const other = { appId: 'app_vec_other', environment: 'live' as const };
const MODEL = 'test-embedding';
let orm: MikroORM;
let sql: pg.Client;

const vector = (seed: number) => Float32Array.from({ length: 8 }, (_, i) => Math.sin(seed * 7 + i));
const regions = (seed: number, n: number): RegionEmbedding[] =>
  Array.from({ length: n }, (_, region) => ({ region, rotation: 0, label: region ? 'dog' : null, confidence: region ? 0.9 : null, bbox: null, vector: vector(seed * 10 + region) }));

async function addImage(p: typeof part, id: string, seed: number, n = 2): Promise<void> {
  await sql.query(
    `insert into catalog.product_images (id, app_id, environment, product_id, object_key, content_type, bytes, sha256, width, height, position, is_primary, thumbnail_status, embedding_status, created_at, updated_at)
     values ($1, $2, $3, $4, 'none', 'image/jpeg', 0, '', 1, 1, 1, false, 'ready', 'pending', now(), now())`,
    [id, p.appId, p.environment, `prod_${p.appId}`],
  );
  expect(await replaceEmbeddings(orm.em.fork(), p, id, MODEL, regions(seed, n))).toBe(true);
}

/** Rows in one order, vectors as plain arrays: what two reads of the same partition compare by. */
const canonical = (rows: readonly IndexedVector[]) =>
  rows.map((r) => ({ ...r, codes: [...r.codes] })).sort((a, b) => (a.imageId === b.imageId ? a.region - b.region : a.imageId < b.imageId ? -1 : 1));

async function expectFresh(cache: PartitionVectors, p = part): Promise<IndexedVector[]> {
  const chunks = await cache.get(orm.em.fork(), p, MODEL);
  const cached = chunks.flatMap((c) => c.rows);
  expect(canonical(cached)).toEqual(canonical((await partitionVectors(orm.em.fork(), p, MODEL)).rows));
  // each chunk's block holds its rows' codes at their places
  for (const c of chunks) c.rows.forEach((r, i) => expect(c.block.row(i)).toEqual(r.codes));
  return cached;
}

beforeAll(async () => {
  db = await catalogScratch('catalog_vectors');
  ({ orm, sql } = db);
  for (const p of [part, other]) {
    await sql.query(
      `insert into catalog.products (id, app_id, environment, name, sku, status, type, inventory_quantity, created_at, updated_at) values ($1, $2, $3, 'P', $4, 'active', 'physical', 1, now(), now())`,
      [`prod_${p.appId}`, p.appId, p.environment, `SKU-${p.appId}`],
    );
  }
  for (let i = 0; i < 20; i++) await addImage(part, `img_v${i}`, i);
  await addImage(other, 'img_o0', 100);
}, 60_000);

afterAll(() => db?.close());

test('the exact vectors of a shortlist, by image and region; a row gone is absent', async () => {
  const exact = await exactVectors(orm.em.fork(), part, MODEL, [
    { imageId: 'img_v1', region: 1 },
    { imageId: 'img_v1', region: 1 },
    { imageId: 'img_v2', region: 0 },
    { imageId: 'img_v2', region: 9 },
    { imageId: 'img_o0', region: 0 },
  ]);
  expect([...exact.keys()].sort()).toEqual(['img_v1/1', 'img_v2/0']);
  expect([...exact.get('img_v1/1')!]).toEqual([...vector(11)]);
});

test('after each change only the changed images are read, and the rows equal a fresh read', async () => {
  const cache = new PartitionVectors();
  expect((await expectFresh(cache)).length).toBe(40);
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 0, imagesRead: 0 });
  // unchanged: the same rows, nothing read
  const same = await cache.get(orm.em.fork(), part, MODEL);
  expect(same).toBe(await cache.get(orm.em.fork(), part, MODEL));
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 0 });

  await addImage(part, 'img_new', 50, 3);
  expect((await expectFresh(cache)).length).toBe(43);
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 1, imagesRead: 1 });

  // an image's vectors replaced whole, with fewer regions and other values
  expect(await replaceEmbeddings(orm.em.fork(), part, 'img_v3', MODEL, regions(77, 1))).toBe(true);
  const replaced = await expectFresh(cache);
  expect(replaced.filter((r) => r.imageId === 'img_v3').map((r) => [...r.codes])).toEqual([[...quantize(vector(770)).codes]]);
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 2, imagesRead: 2 });

  // an image deleted (its rows go by the foreign key): nothing to read
  await sql.query(`delete from catalog.product_images where id = 'img_v7'`);
  expect((await expectFresh(cache)).some((r) => r.imageId === 'img_v7')).toBe(false);
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 3, imagesRead: 2 });

  // another partition's writes leave this one's cache as it is
  await addImage(other, 'img_o1', 101);
  await cache.get(orm.em.fork(), part, MODEL);
  expect(cache.stats()).toMatchObject({ loads: 1, refreshes: 3 });
  expect((await expectFresh(cache, other)).map((r) => r.imageId).sort()).toEqual(['img_o0', 'img_o0', 'img_o1', 'img_o1']);

  // most images changed at once: one whole read instead
  for (let i = 0; i < 15; i++) if (i !== 3 && i !== 7) expect(await replaceEmbeddings(orm.em.fork(), part, `img_v${i}`, MODEL, regions(200 + i, 2))).toBe(true);
  await expectFresh(cache);
  expect(cache.stats()).toMatchObject({ loads: 3, refreshes: 3 });
});

test('a change re-packs only the chunks it touches (and small ones); the others are kept as they were', async () => {
  const cache = new PartitionVectors(undefined, 4);
  await expectFresh(cache);
  const before = await cache.get(orm.em.fork(), part, MODEL);
  expect(before.every((c) => c.rows.length <= 4)).toBe(true);
  const touched = before.filter((c) => c.rows.some((r) => r.imageId === 'img_v5'));
  expect(await replaceEmbeddings(orm.em.fork(), part, 'img_v5', MODEL, regions(55, 2))).toBe(true);
  await expectFresh(cache);
  const after = await cache.get(orm.em.fork(), part, MODEL);
  const kept = after.filter((c) => before.includes(c));
  // every full chunk without img_v5 is the same object; the touched ones are new
  expect(kept.length).toBe(before.filter((c) => c.rows.length === 4 && !touched.includes(c)).length);
  expect(touched.some((c) => after.includes(c))).toBe(false);
  expect(after.flatMap((c) => c.rows).filter((r) => r.imageId === 'img_v5').map((r) => [...r.codes])).toEqual(regions(55, 2).map((g) => [...quantize(g.vector).codes]));
});
