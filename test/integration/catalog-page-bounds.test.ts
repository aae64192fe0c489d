// Deep pages of the product list seek to kept sort keys (products/product.page-bounds.ts) instead of
// walking their offset: on a scratch database migrated like the catalog subgraph's, with 2,600 live
// products, every deep page equals the page read by its offset, in both directions of the
// newest/oldest order, before and after the keys are read, and after each kind of write that moves
// the order (insert, soft delete, restore, a changed creation time, delete): a page never answers
// from keys read at another version of the order.
import type pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import type { TenantContext } from '../../lib/tenant.js';
import { catalog } from '../../subgraphs/catalog/index.js';
import type { CatalogContext } from '../../subgraphs/catalog/context.js';
import { createCatalogRuntime, type CatalogRuntime } from '../../subgraphs/catalog/runtime.js';
import { listProducts } from '../../subgraphs/catalog/products/product.service.js';
import { PageBounds } from '../../subgraphs/catalog/products/product.page-bounds.js';
import { pageBoundKeys } from '../../subgraphs/catalog/products/product.repository.js';
import { catalogScratch, type CatalogScratch } from '../harness/catalog-db.js';

let db: CatalogScratch;
const part = { appId: 'app_bounds', environment: 'live' as const };
const other = { appId: 'app_other', environment: 'live' as const };
let orm: MikroORM;
let runtime: CatalogRuntime;
let sql: pg.Client;

function context(p = part): CatalogContext {
  const tenant: TenantContext = { kind: 'key', requestId: 'r', scopes: ['products:read'], ...p };
  const em = orm.em.fork();
  catalog.scope(em, tenant);
  const base = { tenant, em, log: createLogger({}, 'silent'), pubsub: createMemoryPubSub(), requestId: 'r', runtime };
  return { ...base, loaders: catalog.createLoaders(base) };
}

/** The page by its offset, as the list read it before kept keys: the reference. */
async function reference(page: number, size: number, dir: 'asc' | 'desc', p = part): Promise<string[]> {
  const r = await sql.query(
    `select id from catalog.products where app_id = $1 and environment = $2 and deleted_at is null order by created_at ${dir}, id ${dir} limit $3 offset $4`,
    [p.appId, p.environment, size, (page - 1) * size],
  );
  return r.rows.map((x) => x.id as string);
}

const listed = async (page: number, size: number, sort: string, p = part) => (await listProducts(context(p), { page, pageSize: size, sort })).items.map((x) => x.id);

/** Deep pages of both directions equal their reference. */
async function expectDeepPagesRight(): Promise<void> {
  for (const [page, size] of [[11, 100], [13, 100], [26, 100], [27, 100], [101, 20], [130, 20], [24, 100], [51, 50]] as const) {
    expect(await listed(page, size, '-created_at')).toEqual(await reference(page, size, 'desc'));
    expect(await listed(page, size, 'created_at')).toEqual(await reference(page, size, 'asc'));
  }
}

/** Until both directions' keys are read at the current version (they are read in the background). */
async function keysSettled(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await listed(20, 100, '-created_at');
    await listed(20, 100, 'created_at');
    if (runtime.pageBounds.seek(part, 'desc', 1900) && runtime.pageBounds.seek(part, 'asc', 1900)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the keys were never read');
}

beforeAll(async () => {
  db = await catalogScratch('catalog_bounds');
  ({ orm, sql } = db);
  runtime = await createCatalogRuntime({ cfg: loadConfig(), orm, log: createLogger({}, 'silent'), pubsub: createMemoryPubSub() });
  // keys may be read anew every 50 ms here (1 s by default), so each write's case settles quickly
  runtime.pageBounds = new PageBounds(undefined, 50);
  // 2,600 products, several sharing each creation time (ties are ordered by id), and another app's
  for (const p of [part, other]) {
    await sql.query(
      `insert into catalog.products (id, app_id, environment, name, sku, status, type, inventory_quantity, created_at, updated_at)
       select 'prod_b' || lpad(g::text, 8, '0') || $3, $1, $2, 'P' || g, 'SKU-' || g, 'active', 'physical', 1, now() - ((g / 3) || ' seconds')::interval, now()
         from generate_series(1, 2600) g`,
      [p.appId, p.environment, p === part ? '' : 'o'],
    );
  }
}, 60_000);

afterAll(async () => {
  await db?.close();
});

test('deep pages equal the offset walk, before and once the keys are read', async () => {
  expect(runtime.pageBounds.seek(part, 'desc', 1500)).toBeUndefined();
  await expectDeepPagesRight();
  await keysSettled();
  const at = runtime.pageBounds.seek(part, 'desc', 2500)!;
  expect(at.skip).toBe(500);
  await expectDeepPagesRight();
  // another app's pages are its own; the total is the kept count, in the page's own statement, and
  // counted for a page past the end
  expect(await listed(15, 100, '-created_at', other)).toEqual(await reference(15, 100, 'desc', other));
  const live = Number((await sql.query(`select count(*) from catalog.products where app_id = $1 and deleted_at is null`, [part.appId])).rows[0].count);
  expect((await listProducts(context(), { page: 20, pageSize: 100, sort: '-created_at' })).total).toBe(live);
  expect(await listProducts(context(), { page: 99, pageSize: 100 })).toEqual({ items: [], total: live });
});

test.each([
  ['a new product', `insert into catalog.products (id, app_id, environment, name, sku, status, type, inventory_quantity, created_at, updated_at) values ('prod_new1', 'app_bounds', 'live', 'New', 'SKU-NEW1', 'active', 'physical', 1, now() - interval '400 seconds', now())`],
  ['a soft delete', `update catalog.products set deleted_at = now() where id = 'prod_b00000777'`],
  ['a restore', `update catalog.products set deleted_at = null where id = 'prod_b00000777'`],
  ['a changed creation time', `update catalog.products set created_at = now() - interval '100 seconds' where id = 'prod_b00002222'`],
  ['a delete', `delete from catalog.products where id = 'prod_b00001500'`],
])('after %s, pages read at the old version are not answered', async (_what, statement) => {
  await keysSettled();
  const before = runtime.pageBounds.seek(part, 'desc', 2500)!.version;
  await sql.query(statement);
  await expectDeepPagesRight();
  await keysSettled();
  expect(runtime.pageBounds.seek(part, 'desc', 2500)!.version).not.toBe(before);
  await expectDeepPagesRight();
});

test('an update that moves no product in the order keeps the keys', async () => {
  await keysSettled();
  const before = runtime.pageBounds.seek(part, 'desc', 2500)!.version;
  await sql.query(`update catalog.products set name = 'Renamed', inventory_quantity = 5 where id = 'prod_b00000100'`);
  await listed(20, 100, '-created_at');
  expect(runtime.pageBounds.seek(part, 'desc', 2500)?.version).toBe(before);
  await expectDeepPagesRight();
});

test('the keys of a partition are read at most once per interval, whatever the pages ask', async () => {
  const bounds = new PageBounds(undefined, 60_000);
  bounds.refresh(part, 'desc', () => pageBoundKeys(orm.em.fork(), part, 'desc'));
  for (let i = 0; i < 100 && !bounds.seek(part, 'desc', 2500); i++) await new Promise((r) => setTimeout(r, 20));
  expect(bounds.seek(part, 'desc', 2500)).toBeDefined();
  bounds.markStale(part, 'desc');
  bounds.refresh(part, 'desc', () => pageBoundKeys(orm.em.fork(), part, 'desc'));
  await new Promise((r) => setTimeout(r, 300));
  // not read again within the interval: the deep pages walk their offset meanwhile
  expect(bounds.seek(part, 'desc', 2500)).toBeUndefined();
  expect(await listed(20, 100, '-created_at')).toEqual(await reference(20, 100, 'desc'));
});
