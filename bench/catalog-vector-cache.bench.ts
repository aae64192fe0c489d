// The visual-search vector cache (subgraphs/catalog/vision/vector-cache.ts) on a scratch database:
// a partition of BENCH_IMAGES images (default 10,000; 5 vectors of 1,344 floats each, as a product
// photo with its three turns and one object), then the time a search spends getting the vectors:
//  - a whole read (the first search, and what every search after a change paid before refreshes);
//  - nothing changed (the version statement only);
//  - one image added, one image's vectors replaced, one image deleted (refreshes: the images'
//    stamps, then the changed images' vectors only);
//  - the scan of one query over the kept 8-bit vectors (WebAssembly SIMD, and the same sums in
//    JavaScript), and its shortlist's exact rescoring.
// Run: DATABASE_URL=postgres://… npm run bench:catalog-vector-cache   (BENCH_IMAGES, BENCH_N)
import { loadavg } from 'node:os';
import pg from 'pg';
import { createOrm, migrate } from '../lib/db.js';
import { EMBEDDING_DIMENSIONS } from '../lib/vision/index.js';
import { catalog } from '../subgraphs/catalog/index.js';
import { exactVectors, replaceEmbeddings, type RegionEmbedding } from '../subgraphs/catalog/vision/embedding.repository.js';
import { rescore, scan, shortlistSize, toBytes } from '../subgraphs/catalog/vision/scan.calc.js';
import { PartitionVectors } from '../subgraphs/catalog/vision/vector-cache.js';
import { Int8Rows } from '../lib/int8-vectors/int8-rows.js';
import { scratchDatabase } from './harness.js';
import { fmt, summarize } from './stats.js';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 10_000);
const N = Number(process.env.BENCH_N ?? 10);
const REGIONS = 5;
const MODEL = 'bench-embedding';
const part = { appId: 'app_bench', environment: 'live' as const };

const db = await scratchDatabase('catalog_vectors');
if (!db.url) throw new Error('DATABASE_URL is required');
const orm = await createOrm({ url: db.url, schema: catalog.dbSchema, entities: catalog.entities, migrations: catalog.migrations, filters: catalog.filters });
await migrate(orm, catalog.dbSchema);
const sql = new pg.Client({ connectionString: db.url });
await sql.connect();

const unit = () => {
  const v = Float32Array.from({ length: EMBEDDING_DIMENSIONS }, () => Math.random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const regions = (): RegionEmbedding[] => Array.from({ length: REGIONS }, (_, region) => ({ region, rotation: region < 4 ? region * 90 : 0, label: region === 4 ? 'dog' : null, confidence: null, bbox: null, vector: unit() }));

async function insertImages(ids: string[]): Promise<void> {
  await sql.query(
    `insert into catalog.product_images (id, app_id, environment, product_id, object_key, content_type, bytes, sha256, width, height, position, is_primary, thumbnail_status, embedding_status, created_at, updated_at)
     select id, $2, $3, 'prod_bench', 'none', 'image/jpeg', 0, '', 1, 1, 1, false, 'ready', 'ready', now(), now() from unnest($1::text[]) as id`,
    [ids, part.appId, part.environment],
  );
}

const started = performance.now();
await sql.query(
  `insert into catalog.products (id, app_id, environment, name, sku, status, type, inventory_quantity, created_at, updated_at) values ('prod_bench', $1, $2, 'P', 'SKU-B', 'active', 'physical', 1, now(), now())`,
  [part.appId, part.environment],
);
for (let from = 0; from < IMAGES; from += 200) {
  const ids = Array.from({ length: Math.min(200, IMAGES - from) }, (_, i) => `img_b${from + i}`);
  await insertImages(ids);
  const rows = ids.flatMap((id) => regions().map((r) => ({ id, ...r })));
  await sql.query(
    `insert into catalog.product_image_embeddings (image_id, region, rotation, app_id, environment, product_id, model, vector, created_at)
     select id, region, rotation, $4, $5, 'prod_bench', $6, v, clock_timestamp() from unnest($1::text[], $2::int[], $3::int[], $7::bytea[]) as u(id, region, rotation, v)`,
    [rows.map((r) => r.id), rows.map((r) => r.region), rows.map((r) => r.rotation), part.appId, part.environment, MODEL, rows.map((r) => toBytes(r.vector))],
  );
}
console.log(`partition: ${IMAGES.toLocaleString('en')} images × ${REGIONS} vectors of ${EMBEDDING_DIMENSIONS} floats written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const em = () => orm.em.fork();
const timed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
async function measure(label: string, change: (i: number) => Promise<void>, cache: PartitionVectors): Promise<void> {
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    await change(i);
    samples.push(await timed(() => cache.get(em(), part, MODEL)));
  }
  console.log(fmt(label, summarize(samples, performance.now() - t0)));
}

const cache = new PartitionVectors();
const whole: number[] = [];
for (let i = 0; i < N; i++) whole.push(await timed(() => new PartitionVectors().get(em(), part, MODEL)));
console.log(fmt(`whole read of ${(IMAGES * REGIONS).toLocaleString('en')} vectors, a fresh cache each time`, summarize(whole, whole.reduce((a, b) => a + b, 0))));
await cache.get(em(), part, MODEL);
await measure('nothing changed (version statement only)', async () => undefined, cache);
await measure('one image added, then the search', async (i) => {
  await insertImages([`img_add${i}`]);
  await replaceEmbeddings(em(), part, `img_add${i}`, MODEL, regions());
}, cache);
await measure("one image's vectors replaced, then the search", async (i) => void (await replaceEmbeddings(em(), part, `img_b${i}`, MODEL, regions())), cache);
await measure('one image deleted, then the search', async (i) => void (await sql.query(`delete from catalog.product_images where id = $1`, [`img_b${IMAGES - 1 - i}`])), cache);
console.log(`cache: ${JSON.stringify(cache.stats())}`);
const chunks = await cache.get(em(), part, MODEL);
const rows = chunks.flatMap((c) => c.rows);
// the same dot products summed in JavaScript over the same memory (where WebAssembly SIMD is missing)
const inJs = chunks.map((c) => ({ rows: c.rows, block: Int8Rows.of(c.rows.map((r) => r.codes), c.block.dims, false) }));
const scans: number[] = [];
const jsScans: number[] = [];
const rescores: number[] = [];
for (let i = 0; i < N + 2; i++) {
  const query = unit();
  let t = performance.now();
  const shortlists = scan(chunks, [query], shortlistSize(20));
  const scanned = performance.now() - t;
  t = performance.now();
  const again = scan(inJs, [query], shortlistSize(20));
  const jsScanned = performance.now() - t;
  if (JSON.stringify(again) !== JSON.stringify(shortlists)) throw new Error('the JavaScript sums disagree with the SIMD kernel');
  t = performance.now();
  rescore(shortlists, [query], await exactVectors(em(), part, MODEL, shortlists.flat()), 20);
  if (i < 2) continue; // warm-up
  scans.push(scanned);
  jsScans.push(jsScanned);
  rescores.push(performance.now() - t);
}
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(fmt(`scan of one query, ${rows.length.toLocaleString('en')} 8-bit vectors (WebAssembly SIMD, ${chunks.length} chunks)`, summarize(scans, total(scans))));
console.log(fmt(`the same scan, dot products summed in JavaScript`, summarize(jsScans, total(jsScans))));
console.log(fmt(`exact rescoring of its ${shortlistSize(20)}-product shortlist`, summarize(rescores, total(rescores))));
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await sql.end();
await orm.close();
await db.drop();
