// Reservations grouped per product (reservation.queue.ts + catalog.inventory_hold_group), on a
// scratch database migrated like the catalog subgraph's, through the service as a request reaches it:
// concurrent reserves of one product go as groups, and each caller gets what the per-request path
// would answer in that order (held, the order's own reservation, or refused with its code); tenants
// and environments never share a group; a failed group statement leaves its requests to the
// per-request path; two catalog processes (two ORMs, two queues) on one product never oversell.
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../../lib/db.js';
import { loadConfig } from '../../lib/config.js';
import { DomainError } from '../../lib/errors.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub, type PubSub } from '../../lib/pubsub.js';
import type { Environment, TenantContext } from '../../lib/tenant.js';
import { catalog } from '../../subgraphs/catalog/index.js';
import type { CatalogContext } from '../../subgraphs/catalog/context.js';
import { inventoryEventsTopic } from '../../subgraphs/catalog/event-types.js';
import { createCatalogRuntime, type CatalogRuntime } from '../../subgraphs/catalog/runtime.js';
import { ProductEntity } from '../../subgraphs/catalog/products/product.entity.js';
import { reserve, release, type ReservationView } from '../../subgraphs/catalog/inventory/reservation.service.js';
import { scratchDatabase } from '../harness/scratch-db.js';

const db = scratchDatabase('catalog_groups');
const dbUrl = () => db.url();
const A = { appId: 'app_groups_a', environment: 'live' as Environment };
const B = { appId: 'app_groups_b', environment: 'live' as Environment };
const A_TEST = { appId: 'app_groups_a', environment: 'test' as Environment };

interface Process {
  orm: MikroORM;
  runtime: CatalogRuntime;
  /** the statements of inventory_hold_group this process sent: partition, product and the order ids of each */
  groups: { appId: string; environment: string; productId: string; orders: string[] }[];
}
let one: Process;
let two: Process;
const pubsub: PubSub = createMemoryPubSub();

async function catalogProcess(): Promise<Process> {
  const orm = await createOrm({ url: dbUrl(), schema: catalog.dbSchema, entities: catalog.entities, migrations: catalog.migrations, filters: catalog.filters });
  const runtime = await createCatalogRuntime({ cfg: loadConfig(), orm, log: createLogger({}, 'silent'), pubsub });
  const p: Process = { orm, runtime, groups: [] };
  const conn = orm.em.getConnection();
  const execute = conn.execute.bind(conn);
  conn.execute = ((...args: Parameters<typeof execute>) => {
    const [sql, params] = args;
    if (typeof sql === 'string' && sql.includes('from "catalog"."inventory_hold_group"(')) {
      const [appId, environment, productId, holds] = params as [string, string, string, string];
      p.groups.push({ appId, environment, productId, orders: (JSON.parse(holds) as { orderId: string }[]).map((h) => h.orderId) });
    }
    return execute(...args);
  }) as typeof conn.execute;
  return p;
}

function context(p: Process, part: { appId: string; environment: Environment }): CatalogContext {
  const tenant: TenantContext = { kind: 'key', requestId: 'r', scopes: ['products:write'], keyId: 'k', ...part };
  const em = p.orm.em.fork();
  catalog.scope(em, tenant);
  const base = { tenant, em, log: createLogger({}, 'silent'), pubsub, requestId: 'r', runtime: p.runtime };
  return { ...base, loaders: catalog.createLoaders(base) };
}

async function product(part: { appId: string; environment: Environment }, quantity: number, extra: Partial<ProductEntity> = {}): Promise<string> {
  const em = one.orm.em.fork();
  const p = em.create(ProductEntity, { ...part, name: 'Hot', sku: `HOT-${Math.random().toString(36).slice(2)}`, priceAmount: 100, priceCurrency: 'USD', inventoryQuantity: quantity, ...extra });
  await em.flush();
  return p.id;
}

/** Each reserve settled: the reservation, or the error code. */
async function reserveAll(p: Process, part: { appId: string; environment: Environment }, productId: string, reqs: { quantity: number; orderId: string }[]): Promise<(ReservationView | string)[]> {
  return Promise.all(
    reqs.map((r) =>
      reserve(context(p, part), productId, r).catch((e: unknown) => {
        if (e instanceof DomainError) return e.code;
        throw e;
      }),
    ),
  );
}

async function counters(productId: string): Promise<{ reserved: number; rows: number; sum: number }> {
  const em = one.orm.em.fork();
  const [c] = await em.execute(`select inventory_reserved as reserved from catalog.products where id = ?`, [productId]);
  const [r] = await em.execute(`select count(*)::int as n, coalesce(sum(quantity), 0)::int as q from catalog.inventory_reservations where item_id = ? and status = 'active'`, [productId]);
  return { reserved: Number(c.reserved), rows: Number(r.n), sum: Number(r.q) };
}

const held = (out: (ReservationView | string)[]) => out.filter((o): o is ReservationView => typeof o !== 'string');
const codes = (out: (ReservationView | string)[]) => out.filter((o): o is string => typeof o === 'string');

beforeAll(async () => {
  await db.create();
  one = await catalogProcess();
  await migrate(one.orm, catalog.dbSchema);
  two = await catalogProcess();
}, 60_000);

afterAll(async () => {
  await one?.orm.close();
  await two?.orm.close();
  await db.drop();
});

beforeEach(() => {
  one.groups.length = 0;
  two.groups.length = 0;
});

test('a group with mixed outcomes: held in arrival order until stock runs out mid-group, then refused with the per-request codes', async () => {
  const id = await product(A, 5);
  const reqs = Array.from({ length: 12 }, (_, i) => ({ quantity: 1, orderId: `mixed-${i}` }));
  reqs.splice(3, 0, { quantity: 9, orderId: 'too-many' });
  const out = await reserveAll(one, A, id, reqs);
  expect(one.groups.length).toBeGreaterThan(0);
  expect(Math.max(...one.groups.map((g) => g.orders.length))).toBeGreaterThan(1);
  expect(held(out)).toHaveLength(5);
  // arrival order: the first five of quantity 1 are held, the rest refused
  expect(held(out).map((r) => r.orderId)).toEqual(['mixed-0', 'mixed-1', 'mixed-2', 'mixed-3', 'mixed-4']);
  expect(out[3]).toBe('INSUFFICIENT_INVENTORY'); // 9 of 5 on hand: not there at all
  expect(codes(out).filter((c) => c === 'INVENTORY_RESERVED')).toHaveLength(7); // on hand, held by other orders
  for (const r of held(out)) expect(r).toMatchObject({ productId: id, variantId: null, quantity: 1, status: 'active', components: null });
  expect(new Set(held(out).map((r) => r.id)).size).toBe(5);
  expect(await counters(id)).toEqual({ reserved: 5, rows: 5, sum: 5 });
});

test('idempotent retries inside a group answer the same reservation; a different quantity fails only that request', async () => {
  const id = await product(A, 10);
  const reqs = [
    { quantity: 2, orderId: 'first' },
    { quantity: 1, orderId: 'retry' },
    { quantity: 1, orderId: 'other' },
    { quantity: 1, orderId: 'retry' },
    { quantity: 3, orderId: 'retry' },
    { quantity: 1, orderId: 'retry' },
  ];
  const out = await reserveAll(one, A, id, reqs);
  expect(one.groups.some((g) => g.orders.filter((o) => o === 'retry').length > 1)).toBe(true);
  const retries = [out[1], out[3], out[5]] as ReservationView[];
  expect(retries.every((r) => typeof r !== 'string')).toBe(true);
  expect(new Set(retries.map((r) => r.id)).size).toBe(1);
  expect(out[4]).toBe('VALIDATION_FAILED');
  expect(out[2]).toMatchObject({ orderId: 'other', quantity: 1 });
  expect(await counters(id)).toEqual({ reserved: 4, rows: 3, sum: 4 });
  // released, the order holds again (a new reservation)
  await release(context(one, A), retries[0].id);
  const again = await reserveAll(one, A, id, [{ quantity: 1, orderId: 'retry' }]);
  expect((again[0] as ReservationView).id).not.toBe(retries[0].id);
});

test('two tenants (and two environments of one app) never share a group; another app sees no product of A', async () => {
  const idA = await product(A, 100);
  const idB = await product(B, 100);
  const idTest = await product(A_TEST, 100);
  const batch = (prefix: string) => Array.from({ length: 15 }, (_, i) => ({ quantity: 1, orderId: `${prefix}-${i}` }));
  const [a, b, t, foreign] = await Promise.all([
    reserveAll(one, A, idA, batch('a')),
    reserveAll(one, B, idB, batch('b')),
    reserveAll(one, A_TEST, idTest, batch('t')),
    reserveAll(one, B, idA, batch('foreign')), // B names A's product
  ]);
  expect(held(a)).toHaveLength(15);
  expect(held(b)).toHaveLength(15);
  expect(held(t)).toHaveLength(15);
  expect(foreign.every((o) => o === 'PRODUCT_NOT_FOUND')).toBe(true);
  expect(one.groups.filter((g) => g.orders.length > 1).length).toBeGreaterThanOrEqual(3);
  for (const g of one.groups) {
    const prefix = g.appId === B.appId ? (g.productId === idA ? 'foreign' : 'b') : g.environment === 'test' ? 't' : 'a';
    expect(g.orders.every((o) => o.startsWith(`${prefix}-`))).toBe(true);
  }
  expect(await counters(idA)).toEqual({ reserved: 15, rows: 15, sum: 15 });
  expect(await counters(idB)).toEqual({ reserved: 15, rows: 15, sum: 15 });
});

test('a failing group statement fails no request: each takes the per-request path', async () => {
  const id = await product(A, 6);
  const rename = async (from: string, to: string) => {
    const c = new pg.Client({ connectionString: dbUrl() });
    await c.connect();
    try {
      await c.query(`alter function "catalog"."${from}"(varchar, varchar, varchar, jsonb) rename to ${to}`);
    } finally {
      await c.end();
    }
  };
  await rename('inventory_hold_group', 'inventory_hold_group_away');
  try {
    const out = await reserveAll(one, A, id, Array.from({ length: 10 }, (_, i) => ({ quantity: 1, orderId: `fail-${i}` })));
    expect(one.groups.some((g) => g.orders.length > 1)).toBe(true); // a group was tried, and failed
    expect(held(out)).toHaveLength(6);
    expect(codes(out)).toEqual(Array(4).fill('INVENTORY_RESERVED'));
  } finally {
    await rename('inventory_hold_group_away', 'inventory_hold_group');
  }
  expect(await counters(id)).toEqual({ reserved: 6, rows: 6, sum: 6 });
});

test('expired reservations are given back by the group before it holds', async () => {
  const id = await product(A, 3);
  await reserve(context(one, A), id, { quantity: 3, orderId: 'short', expiresAt: new Date(Date.now() + 300) });
  await new Promise((r) => setTimeout(r, 400));
  const out = await reserveAll(one, A, id, Array.from({ length: 5 }, (_, i) => ({ quantity: 1, orderId: `after-${i}` })));
  expect(held(out)).toHaveLength(3);
  expect(one.groups.some((g) => g.orders.length > 1)).toBe(true);
  expect(await counters(id)).toEqual({ reserved: 3, rows: 3, sum: 3 });
  const [short] = await one.orm.em.fork().execute(`select status from catalog.inventory_reservations where item_id = ? and order_id = 'short'`, [id]);
  expect(short.status).toBe('expired');
});

test('alerts: a group crossing the low-stock line and reaching 0 publishes each alert once, after commit', async () => {
  const id = await product(A, 10, { lowStockThreshold: 5 });
  const seen: string[] = [];
  const it = pubsub.subscribe(inventoryEventsTopic(A.appId, A.environment));
  const reading = (async () => {
    for await (const e of it as AsyncIterable<{ event: string; productId: string }>) if (e.productId === id) seen.push(e.event);
  })();
  const out = await reserveAll(one, A, id, Array.from({ length: 14 }, (_, i) => ({ quantity: 1, orderId: `alert-${i}` })));
  expect(held(out)).toHaveLength(10);
  expect(one.groups.some((g) => g.orders.length > 1)).toBe(true);
  expect(seen.sort()).toEqual(['inventory.low_stock', 'inventory.out_of_stock']);
  await it.return?.();
  await reading.catch(() => undefined);
});

test('two catalog processes on one product never oversell (the row lock orders their groups)', async () => {
  const id = await product(A, 40);
  const batch = (prefix: string) => Array.from({ length: 50 }, (_, i) => ({ quantity: 1, orderId: `${prefix}-${i}` }));
  const [x, y] = await Promise.all([reserveAll(one, A, id, batch('one')), reserveAll(two, A, id, batch('two'))]);
  expect(held(x).length + held(y).length).toBe(40);
  expect(one.groups.length).toBeGreaterThan(0);
  expect(two.groups.length).toBeGreaterThan(0);
  expect([...codes(x), ...codes(y)].every((c) => c === 'INVENTORY_RESERVED')).toBe(true);
  expect(await counters(id)).toEqual({ reserved: 40, rows: 40, sum: 40 });
}, 30_000);
