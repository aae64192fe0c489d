// The catalog's set-based reads, measured in SQL statements on a scratch database migrated like the
// catalog subgraph's: the whole category tree, a page's includes, the effective price of 100
// products and an automated collection's page each cost a fixed number of statements, whatever
// the size of the tree, the page or the batch.
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../../lib/db.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import type { TenantContext } from '../../lib/tenant.js';
import { catalog } from '../../subgraphs/catalog/index.js';
import type { CatalogContext } from '../../subgraphs/catalog/context.js';
import { createCatalogRuntime, type CatalogRuntime } from '../../subgraphs/catalog/runtime.js';
import { ProductEntity } from '../../subgraphs/catalog/products/product.entity.js';
import { CategoryEntity, ProductCategoryEntity } from '../../subgraphs/catalog/categories/category.entity.js';
import { categoryTree } from '../../subgraphs/catalog/categories/category.service.js';
import { CollectionEntity } from '../../subgraphs/catalog/collections/collection.entity.js';
import { collectionProducts } from '../../subgraphs/catalog/collections/collection.service.js';
import { CustomerPriceEntity, PriceTierEntity, ScheduledPriceEntity } from '../../subgraphs/catalog/pricing/price.entity.js';
import { effectivePrices } from '../../subgraphs/catalog/pricing/pricing.service.js';
import { stackDatabaseUrl } from '../harness/db.js';

const name = `catalog_stmts_${process.pid}_${Date.now()}`;
const adminUrl = () => stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, '/postgres$1');
const part = { appId: 'app_statements', environment: 'live' as const };
let orm: MikroORM;
let runtime: CatalogRuntime;
let statements = 0;

async function admin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

function context(): CatalogContext {
  const tenant: TenantContext = { kind: 'key', requestId: 'r', scopes: ['products:read'], ...part };
  const em = orm.em.fork();
  catalog.scope(em, tenant);
  const log = createLogger({}, 'silent');
  const pubsub = createMemoryPubSub();
  const base = { tenant, em, log, pubsub, requestId: 'r', runtime };
  return { ...base, loaders: catalog.createLoaders(base) };
}

/** Statements run by `fn`. */
async function counted(fn: () => Promise<unknown>): Promise<number> {
  const before = statements;
  await fn();
  return statements - before;
}

const productIds: string[] = [];
const categoryIds: string[] = [];

beforeAll(async () => {
  await admin(`create database ${name}`);
  const url = stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);
  orm = await createOrm({ url, schema: catalog.dbSchema, entities: catalog.entities, migrations: catalog.migrations, filters: catalog.filters });
  await migrate(orm, catalog.dbSchema);
  runtime = await createCatalogRuntime({ cfg: loadConfig(), orm, log: createLogger({}, 'silent'), pubsub: createMemoryPubSub() });
  const conn = orm.em.getConnection();
  const execute = conn.execute.bind(conn);
  conn.execute = ((...args: Parameters<typeof execute>) => {
    statements++;
    return execute(...args);
  }) as typeof conn.execute;

  const em = orm.em.fork();
  for (let i = 0; i < 120; i++) {
    const p = em.create(ProductEntity, { ...part, name: `Product ${i}`, sku: `S-${i}`, priceAmount: 1000 + i, priceCurrency: 'USD', status: i % 2 ? 'active' : 'draft' });
    productIds.push(p.id);
  }
  // a tree 6 levels deep, 3 children per node up to level 4 (121 nodes)
  let level = [em.create(CategoryEntity, { ...part, name: 'Root', slug: 'root', position: 0 })];
  categoryIds.push(level[0].id);
  for (let depth = 1; depth < 5; depth++) {
    const next: CategoryEntity[] = [];
    for (const parent of level) {
      for (let k = 0; k < 3; k++) {
        const c = em.create(CategoryEntity, { ...part, name: `C${depth}.${next.length}`, slug: `c-${depth}-${next.length}`, parentId: parent.id, position: k });
        next.push(c);
        categoryIds.push(c.id);
      }
    }
    level = next;
  }
  await em.flush();
  for (let i = 0; i < 100; i++) {
    em.create(ProductCategoryEntity, { ...part, categoryId: categoryIds[i % 50], productId: productIds[i] });
    em.create(PriceTierEntity, { ...part, productId: productIds[i], currency: 'USD', minQuantity: 5, maxQuantity: null, amount: 900 });
    if (i % 3 === 0) em.create(CustomerPriceEntity, { ...part, productId: productIds[i], customerGroupId: 'vip', currency: 'USD', amount: 800 });
    if (i % 4 === 0) em.create(ScheduledPriceEntity, { ...part, productId: productIds[i], currency: 'USD', amount: 850, startsAt: new Date(Date.now() - 60_000) });
  }
  em.create(CollectionEntity, {
    ...part,
    name: 'Active expensive',
    slug: 'active-expensive',
    type: 'automated',
    rules: { match: 'all', conditions: [{ field: 'status', operator: 'equals', value: 'active' }, { field: 'price', operator: 'greater_than', value: 1050 }] },
  });
  await em.flush();
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await admin(`drop database if exists ${name} with (force)`);
});

test('the whole category tree (121 nodes, 5 levels) is one statement', async () => {
  const ctx = context();
  let rows: Awaited<ReturnType<typeof categoryTree>> = [];
  expect(await counted(async () => (rows = await categoryTree(ctx)))).toBe(1);
  expect(rows).toHaveLength(121);
  expect(Math.max(...rows.map((r) => r.depth))).toBe(4);
});

test('children, product counts and products of 50 categories: one statement each', async () => {
  const ctx = context();
  const l = ctx.loaders;
  const ids = categoryIds.slice(0, 50);
  expect(await counted(() => Promise.all(ids.map((id) => l.childrenByParent.load(id))))).toBe(1);
  const counts: number[] = [];
  expect(await counted(async () => counts.push(...(await Promise.all(ids.map((id) => l.productCountByCategory.load(id))))))).toBe(1);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(100);
  expect(await counted(() => Promise.all(ids.map((id) => l.productsByCategory(10).load(id))))).toBe(1);
  expect(await counted(() => Promise.all(productIds.slice(0, 100).map((id) => l.categoriesByProduct.load(id))))).toBe(1);
});

test('the effective price of 100 products is one statement', async () => {
  const ctx = context();
  const reqs = productIds.slice(0, 100).map((productId, i) => ({ productId, quantity: i % 2 ? 10 : 1 }));
  let out: Awaited<ReturnType<typeof effectivePrices>> = [];
  expect(await counted(async () => (out = await effectivePrices(ctx, reqs, { currency: 'USD', customerGroupIds: ['vip'] })))).toBe(1);
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await effectivePrices(context(), reqs, { currency: 'USD', customerGroupIds: ['vip'] });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`effective price of 100 products: 1 statement; p50 ${times[14].toFixed(1)} ms, p95 ${times[28].toFixed(1)} ms (30 runs)`);
  expect(out.every((o) => o.ok)).toBe(true);
  const sources = out.map((o) => (o.ok ? o.price.source : 'error'));
  expect(sources[0]).toBe('customer_group'); // i = 0: group (and scheduled, tier): the group wins
  expect(sources[1]).toBe('tier'); // quantity 10
  expect(sources[2]).toBe('base');
  expect(sources[4]).toBe('scheduled');
});

test('a page of an automated collection is three statements (the collection, the count, the page), whatever the page size', async () => {
  const ctx = context();
  const c = await ctx.em.findOneOrFail(CollectionEntity, { slug: 'active-expensive' });
  let page: Awaited<ReturnType<typeof collectionProducts>> = { items: [], total: 0 };
  for (const pageSize of [5, 100]) {
    const ctx2 = context();
    expect(await counted(async () => (page = await collectionProducts(ctx2, c.id, { page: 1, pageSize, sort: 'price' })))).toBe(3); // the collection, the count, the page
  }
  // active (odd i) with price > 1050 (i > 50): 51, 53, ..., 119
  expect(page.total).toBe(35);
  expect(page.items[0].name).toBe('Product 51');
});
