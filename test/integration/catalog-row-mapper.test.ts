// The read paths that skip the ORM's hydration (a page of products, its variants, categories and
// images, as plain rows or inside json_agg) map rows by the entity's metadata (lib/row-mapper.ts):
// on a scratch database migrated like the catalog subgraph's, each view built from a mapped row
// equals the view built from the entity the ORM loads, nulls, numbers, dates and JSON included.
import type pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { rowMapper } from '../../lib/row-mapper.js';
import { CategoryEntity } from '../../subgraphs/catalog/categories/category.entity.js';
import { toCategory } from '../../subgraphs/catalog/categories/category.type.js';
import { ProductImageEntity } from '../../subgraphs/catalog/images/image.entity.js';
import { toProductImage } from '../../subgraphs/catalog/images/image.type.js';
import { ProductEntity } from '../../subgraphs/catalog/products/product.entity.js';
import { toProduct } from '../../subgraphs/catalog/products/product.type.js';
import { VariantEntity } from '../../subgraphs/catalog/variants/variant.entity.js';
import { toVariant } from '../../subgraphs/catalog/variants/variant.type.js';
import { catalogScratch, type CatalogScratch } from '../harness/catalog-db.js';

let db: CatalogScratch;
const part = ['app_rows', 'live'];
let orm: MikroORM;
let sql: pg.Client;

beforeAll(async () => {
  db = await catalogScratch('catalog_rows');
  ({ orm, sql } = db);
  await sql.query(
    `insert into catalog.products (id, app_id, environment, name, sku, description, status, type, price_amount, price_currency, compare_at_amount, inventory_quantity,
       inventory_reserved, track_stock, allow_backorder, low_stock_threshold, weight, seo, options, attributes, created_at, updated_at, deleted_at)
     values ('prod_full', $1, $2, 'Full', 'SKU-FULL', 'd', 'active', 'physical', 9000000000123, 'USD', 9000000000999, 7, 2, true, false, 3,
       '{"value": 1.5, "unit": "kg"}', '{"title": "T"}', '[{"name": "size", "values": ["S", "M"]}]', '{"brand": "B", "n": [1, 2]}', now() - interval '1 day', now(), null),
            ('prod_bare', $1, $2, 'Bare', 'SKU-BARE', null, 'draft', 'digital', null, null, null, 0, 0, false, true, null, null, null, null, null, now(), now(), now())`,
    part,
  );
  await sql.query(
    `insert into catalog.product_variants (id, app_id, environment, product_id, name, sku, options, price_modifier_type, price_modifier_amount, inventory_quantity, track_stock, weight, position, created_at, updated_at)
     values ('var_a', $1, $2, 'prod_full', 'S', 'SKU-FULL-S', '{"size": "S"}', 'fixed', 250, 4, true, '{"value": 1, "unit": "kg"}', 0, now(), now()),
            ('var_b', $1, $2, 'prod_full', 'M', 'SKU-FULL-M', '{"size": "M"}', null, null, 0, false, null, 1, now(), now())`,
    part,
  );
  await sql.query(
    `insert into catalog.categories (id, app_id, environment, name, slug, description, parent_id, position, seo, metadata, created_at, updated_at)
     values ('cat_root', $1, $2, 'Root', 'root', null, null, 0, null, null, now(), now()),
            ('cat_leaf', $1, $2, 'Leaf', 'leaf', 'x', 'cat_root', 3, '{"title": "L"}', '{"k": "v"}', now(), now())`,
    part,
  );
  await sql.query(
    `insert into catalog.product_images (id, app_id, environment, product_id, object_key, content_type, bytes, sha256, width, height, alt_text, position, is_primary, thumbnail_status, embedding_status, created_at, updated_at)
     values ('img_a', $1, $2, 'prod_full', 'k/a', 'image/png', 1234, '${'0'.repeat(64)}', 640, 480, 'alt', 0, true, 'ready', 'pending', now(), now())`,
    part,
  );
}, 60_000);

afterAll(async () => {
  await db?.close();
});

/** The raw rows of `table` (as `select x.*` gives them) and as json_agg gives them (JSON text parsed, dates as strings). */
async function rows(table: string): Promise<{ plain: Record<string, unknown>[]; agg: Record<string, unknown>[] }> {
  const plain = (await sql.query(`select * from catalog.${table} order by id`)).rows;
  const agg = (await sql.query(`select json_agg(x order by x.id) as a from catalog.${table} x`)).rows[0].a;
  return { plain, agg };
}

async function entities<T extends object>(entity: new () => T): Promise<T[]> {
  return orm.em.fork().find(entity, {}, { filters: false, orderBy: { id: 'asc' } as never });
}

test('products: the view of a mapped row equals the view of the entity (plain rows and json_agg rows)', async () => {
  const map = rowMapper<ProductEntity>(orm.em, ProductEntity);
  const want = (await entities(ProductEntity)).map(toProduct);
  const { plain, agg } = await rows('products');
  expect(plain.map((r) => toProduct(map(r)))).toEqual(want);
  expect(agg.map((r) => toProduct(map(r)))).toEqual(want);
  expect(want[1].price?.amount).toBe(9000000000123);
});

test('variants, categories and images: the same', async () => {
  const v = rowMapper<VariantEntity>(orm.em, VariantEntity);
  const wantV = (await entities(VariantEntity)).map(toVariant);
  const rv = await rows('product_variants');
  expect(rv.plain.map((r) => toVariant(v(r)))).toEqual(wantV);
  expect(rv.agg.map((r) => toVariant(v(r)))).toEqual(wantV);

  const c = rowMapper<CategoryEntity>(orm.em, CategoryEntity);
  const wantC = (await entities(CategoryEntity)).map((e) => toCategory(e));
  const rc = await rows('categories');
  expect(rc.plain.map((r) => toCategory(c(r)))).toEqual(wantC);
  expect(rc.agg.map((r) => toCategory(c(r)))).toEqual(wantC);
  expect(wantC[0].parentId).toBe('cat_root');

  const i = rowMapper<ProductImageEntity>(orm.em, ProductImageEntity);
  const wantI = (await entities(ProductImageEntity)).map((e) => toProductImage('http://x', e));
  const ri = await rows('product_images');
  expect(ri.plain.map((r) => toProductImage('http://x', i(r)))).toEqual(wantI);
  expect(ri.agg.map((r) => toProductImage('http://x', i(r)))).toEqual(wantI);
});
