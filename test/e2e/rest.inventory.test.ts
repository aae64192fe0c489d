// Inventory end to end through the REST bridge (and GraphQL for the subscription): locations,
// levels and the ledger, reservations (contention, idempotency, expiry, commit/fulfil, variants,
// bundles), and stock alerts through webhooks and graphql-ws.
import { createTenant, gql, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver } from '../harness/webhook-receiver.js';
import { subscribe, wsClient } from '../harness/ws.js';

async function product(t: Tenant, attrs: Record<string, unknown> = {}) {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('S-'), ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const location = (t: Tenant, attrs: Record<string, unknown>) => rest('POST', '/v1/inventory/locations', { body: jsonApi('locations', attrs), headers: t.keyHeaders });
const inventory = (t: Tenant, id: string, q = '') => rest('GET', `/v1/products/${id}/inventory${q}`, { headers: t.keyHeaders });
const adjust = (t: Tenant, id: string, adjustments: unknown[], extra: Record<string, unknown> = {}) =>
  rest('POST', `/v1/products/${id}/inventory/adjust`, { body: { data: { adjustments, ...extra } }, headers: t.keyHeaders });
const reserve = (t: Tenant, id: string, data: Record<string, unknown>) => rest('POST', `/v1/products/${id}/inventory/reserve`, { body: { data }, headers: t.keyHeaders });

describe('locations, levels and the ledger', () => {
  test('locations: the first is the default, codes are unique, one default at a time', async () => {
    const t = await createTenant();
    const a = await location(t, { name: 'Main', code: 'MAIN', type: 'warehouse', address: { line1: '1 Road', city: 'Oslo', postal_code: '0150', country: 'NO' } });
    expect(a.status).toBe(201);
    expect(a.body.data.type).toBe('locations');
    expect(a.body.data.attributes).toMatchObject({ name: 'Main', code: 'MAIN', is_default: true, address: { city: 'Oslo', postal_code: '0150' } });
    const b = await location(t, { name: 'Store', code: 'STORE', type: 'store' });
    expect(b.body.data.attributes.is_default).toBe(false);
    expectServiceError(await location(t, { name: 'Again', code: 'MAIN' }), 'products', 409, 'LOCATION_CODE_EXISTS', { parameter: 'code' });
    expectServiceError(await location(t, { name: 'Bad', code: 'has space' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'code' });
    const c = await location(t, { name: 'New main', code: 'NEW', is_default: true });
    expect(c.body.data.attributes.is_default).toBe(true);
    const list = await rest('GET', '/v1/inventory/locations', { headers: t.keyHeaders });
    expect(list.body.data.filter((l: any) => l.attributes.is_default).map((l: any) => l.id)).toEqual([c.body.data.id]);
    const other = await createTenant();
    expect((await rest('GET', '/v1/inventory/locations', { headers: other.keyHeaders })).body.data).toEqual([]);
  });

  test('GET, PUT levels, POST adjust with reason and reference, the ledger, and never below what is held', async () => {
    const t = await createTenant();
    const main = (await location(t, { name: 'Main', code: 'MAIN' })).body.data.id;
    const store = (await location(t, { name: 'Store', code: 'STORE' })).body.data.id;
    const p = await product(t, { inventory: { quantity: 10, low_stock_threshold: 3 } });
    const g = await inventory(t, p.id);
    expect(g.status).toBe(200);
    expect(g.body.data.type).toBe('inventory');
    expect(g.body.data.attributes).toMatchObject({ product_id: p.id, total_quantity: 10, available: 10, reserved: 0, committed: 0, in_stock: true, low_stock: false, locations: [{ location_id: main, name: 'Main', quantity: 10, available: 10 }] });
    const put = await rest('PUT', `/v1/products/${p.id}/inventory`, { body: { data: { locations: [{ location_id: main, quantity: 4 }, { location_id: store, quantity: 6 }] } }, headers: t.keyHeaders });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes.total_quantity).toBe(10);
    expect(put.body.data.attributes.locations).toEqual(expect.arrayContaining([expect.objectContaining({ location_id: store, quantity: 6 })]));
    const adj = await adjust(t, p.id, [{ location_id: store, quantity: -2, reason: 'damaged', reference: 'RMA-1' }, { location_id: main, quantity: 5, reason: 'restock', reference: 'PO-7' }]);
    expect(adj.status).toBe(200);
    expect(adj.body.data.attributes).toMatchObject({ total_quantity: 13, available: 13 });
    const ledger = await rest('GET', `/v1/products/${p.id}/inventory/adjustments`, { headers: t.keyHeaders });
    expect(ledger.status).toBe(200);
    expect(ledger.body.meta.total).toBe(4);
    expect(ledger.body.data[0].attributes).toMatchObject({ location_id: main, quantity: 5, quantity_before: 4, quantity_after: 9, reason: 'restock', reference: 'PO-7' });
    expect(ledger.body.data[0].attributes.actor).toMatch(/^key:/);
    expect(ledger.body.data.map((a: any) => a.attributes.reason)).toEqual(['restock', 'damaged', 'set', 'set']);
    // the product's own fields are the same numbers
    expect((await rest('GET', `/v1/products/${p.id}`, { headers: t.keyHeaders })).body.data.attributes.inventory).toMatchObject({ quantity: 13, available: 13 });
    // a location cannot go below 0, the item not below what is reserved
    expectServiceError(await adjust(t, p.id, [{ location_id: store, quantity: -5, reason: 'x' }]), 'products', 409, 'INSUFFICIENT_INVENTORY', { parameter: 'adjustments[0].quantity' });
    expect((await reserve(t, p.id, { quantity: 12, order_id: 'o-1' })).status).toBe(201);
    expectServiceError(await adjust(t, p.id, [{ location_id: main, quantity: -2, reason: 'shrink' }]), 'products', 409, 'INSUFFICIENT_INVENTORY', { parameter: 'adjustments[0].quantity' });
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ total_quantity: 13, reserved: 12, available: 1 });
    // errors name the parameter
    expectServiceError(await adjust(t, p.id, [{ location_id: 'loc_AAAAAAAAAAAAAAAAAAAA', quantity: 1, reason: 'x' }]), 'products', 404, 'LOCATION_NOT_FOUND', { parameter: 'adjustments[0].location_id' });
    expectServiceError(await adjust(t, p.id, [{ location_id: main, quantity: 1, reason: '' }]), 'products', 422, 'VALIDATION_FAILED', { parameter: 'adjustments[0].reason' });
    const other = await createTenant();
    expectServiceError(await inventory(other, p.id), 'products', 404, 'PRODUCT_NOT_FOUND');
  });
});

describe('reservations', () => {
  test('50 parallel reserves of the last unit: exactly one succeeds, the others INVENTORY_RESERVED', async () => {
    const t = await createTenant();
    const p = await product(t, { inventory: { quantity: 1 } });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => reserve(t, p.id, { quantity: 1, order_id: `order-${i}` })));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body.errors[0].code).toBe('INVENTORY_RESERVED');
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ total_quantity: 1, reserved: 1, available: 0, in_stock: false });
  }, 90_000);

  test('idempotent per order_id, INSUFFICIENT_INVENTORY vs INVENTORY_RESERVED, release, commit, fulfil', async () => {
    const t = await createTenant();
    const p = await product(t, { inventory: { quantity: 5 } });
    const expires = new Date(Date.now() + 600_000).toISOString();
    const a = await reserve(t, p.id, { quantity: 3, order_id: 'A', expires_at: expires });
    expect(a.status).toBe(201);
    expect(a.body.data.type).toBe('reservation');
    expect(a.body.data.attributes).toMatchObject({ product_id: p.id, quantity: 3, order_id: 'A', status: 'active', expires_at: expires });
    const again = await reserve(t, p.id, { quantity: 3, order_id: 'A' });
    expect(again.body.data.id).toBe(a.body.data.id);
    expectServiceError(await reserve(t, p.id, { quantity: 3, order_id: 'B' }), 'products', 409, 'INVENTORY_RESERVED', { parameter: 'quantity' });
    expectServiceError(await reserve(t, p.id, { quantity: 6, order_id: 'B' }), 'products', 409, 'INSUFFICIENT_INVENTORY', { parameter: 'quantity' });
    expectServiceError(await reserve(t, p.id, { quantity: 0, order_id: 'B' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'quantity' });
    expectServiceError(await reserve(t, p.id, { quantity: 1, order_id: 'B', expires_at: '2000-01-01T00:00:00Z' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'expires_at' });
    const rel = await rest('DELETE', `/v1/inventory/reservations/${a.body.data.id}`, { headers: t.keyHeaders });
    expect(rel.status).toBe(200);
    expect(rel.body.data.attributes.status).toBe('released');
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ reserved: 0, available: 5 });
    // commit on payment, then fulfil: committed stock leaves the location
    const b = await reserve(t, p.id, { quantity: 2, order_id: 'B' });
    const c = await rest('POST', `/v1/inventory/reservations/${b.body.data.id}/commit`, { headers: t.keyHeaders });
    expect(c.status).toBe(200);
    expect(c.body.data.attributes.status).toBe('committed');
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ total_quantity: 5, reserved: 0, committed: 2, available: 3 });
    const f = await rest('POST', `/v1/inventory/reservations/${b.body.data.id}/fulfill`, { headers: t.keyHeaders });
    expect(f.status).toBe(200);
    expect(f.body.data.attributes.status).toBe('fulfilled');
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ total_quantity: 3, reserved: 0, committed: 0, available: 3 });
    const ledger = await rest('GET', `/v1/products/${p.id}/inventory/adjustments`, { headers: t.keyHeaders });
    expect(ledger.body.data[0].attributes).toMatchObject({ quantity: -2, reason: 'fulfillment', reference: 'B' });
    expectServiceError(await rest('POST', `/v1/inventory/reservations/${a.body.data.id}/commit`, { headers: t.keyHeaders }), 'products', 409, 'RESERVATION_NOT_ACTIVE', { parameter: 'reservation_id' });
    const other = await createTenant();
    expectServiceError(await rest('DELETE', `/v1/inventory/reservations/${b.body.data.id}`, { headers: other.keyHeaders }), 'products', 404, 'RESERVATION_NOT_FOUND');
  });

  test('expiry: not held after expires_at even before the job runs; the job marks it expired', async () => {
    const t = await createTenant();
    const p = await product(t, { inventory: { quantity: 2 } });
    const r = await reserve(t, p.id, { quantity: 2, order_id: 'E', expires_at: new Date(Date.now() + 1500).toISOString() });
    expect(r.status).toBe(201);
    expectServiceError(await reserve(t, p.id, { quantity: 1, order_id: 'F' }), 'products', 409, 'INVENTORY_RESERVED');
    await new Promise((res) => setTimeout(res, 1700));
    expect((await inventory(t, p.id)).body.data.attributes).toMatchObject({ reserved: 0, available: 2 });
    // the job releases it (runs every INVENTORY_EXPIRY_SWEEP_MS, 5 s by default)
    let status = '';
    for (let i = 0; i < 40 && status !== 'expired'; i++) {
      status = (await rest('GET', `/v1/inventory/reservations/${r.body.data.id}`, { headers: t.keyHeaders })).body.data.attributes.status;
      if (status !== 'expired') await new Promise((res) => setTimeout(res, 250));
    }
    expect(status).toBe('expired');
    expect((await rest('GET', `/v1/products/${p.id}`, { headers: t.keyHeaders })).body.data.attributes.inventory).toMatchObject({ reserved: 0, available: 2 });
    expect((await reserve(t, p.id, { quantity: 2, order_id: 'F' })).status).toBe(201);
  }, 30_000);

  test('a hold also gives back expired reservations itself (before the job), in the same transaction', async () => {
    const t = await createTenant();
    const p = await product(t, { inventory: { quantity: 1 } });
    await reserve(t, p.id, { quantity: 1, order_id: 'X', expires_at: new Date(Date.now() + 800).toISOString() });
    await new Promise((res) => setTimeout(res, 1000));
    const r = await reserve(t, p.id, { quantity: 1, order_id: 'Y' });
    expect(r.status).toBe(201);
  });

  test('variants hold their own stock; bundles reserve their required components all or nothing', async () => {
    const t = await createTenant();
    const p = await product(t, {});
    await rest('PUT', `/v1/products/${p.id}/options`, { body: { data: { options: [{ name: 'Size', values: ['S', 'M'] }] } }, headers: t.keyHeaders });
    const v = (await rest('POST', `/v1/products/${p.id}/variants`, { body: jsonApi('variants', { sku: uniq('V-'), options: { Size: 'S' }, inventory: { quantity: 2 } }), headers: t.keyHeaders })).body.data;
    const rv = await reserve(t, p.id, { quantity: 2, order_id: 'V1', variant_id: v.id });
    expect(rv.status).toBe(201);
    expect(rv.body.data.attributes.variant_id).toBe(v.id);
    expect((await inventory(t, p.id, `?variant_id=${v.id}`)).body.data.attributes).toMatchObject({ variant_id: v.id, total_quantity: 2, reserved: 2, available: 0 });
    expectServiceError(await reserve(t, p.id, { quantity: 1, order_id: 'V2', variant_id: v.id }), 'products', 409, 'INVENTORY_RESERVED');
    expectServiceError(await reserve(t, p.id, { quantity: 1, order_id: 'V2', variant_id: 'var_AAAAAAAAAAAAAAAAAAAA' }), 'products', 404, 'VARIANT_NOT_FOUND', { parameter: 'variant_id' });

    const c1 = await product(t, { inventory: { quantity: 10 } });
    const c2 = await product(t, { inventory: { quantity: 3 } });
    const b = await product(t, { type: 'bundle', bundle_items: [{ product_id: c1.id, quantity: 2 }, { product_id: c2.id, quantity: 1 }] });
    const rb = await reserve(t, b.id, { quantity: 3, order_id: 'B1' });
    expect(rb.status).toBe(201);
    expect(rb.body.data.attributes.components).toHaveLength(2);
    expect((await inventory(t, c1.id)).body.data.attributes.reserved).toBe(6);
    expect((await inventory(t, c2.id)).body.data.attributes.reserved).toBe(3);
    // c1 could give 2 more bundles, c2 none: nothing is held
    expectServiceError(await reserve(t, b.id, { quantity: 1, order_id: 'B2' }), 'products', 409, 'INVENTORY_RESERVED');
    expect((await inventory(t, c1.id)).body.data.attributes.reserved).toBe(6);
    const rel = await rest('DELETE', `/v1/inventory/reservations/${rb.body.data.id}`, { headers: t.keyHeaders });
    expect(rel.body.data.attributes.components.map((c: any) => c.status)).toEqual(['released', 'released']);
    expect((await inventory(t, c2.id)).body.data.attributes.reserved).toBe(0);
    expect((await inventory(t, b.id)).body.data.attributes).toMatchObject({ available: 3, in_stock: true });
  });
});

describe('stock alerts', () => {
  test('low_stock and out_of_stock fire once per crossing: webhooks and the graphql-ws subscription', async () => {
    const t = await createTenant();
    const rx = await startReceiver();
    try {
      const hook = await rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', { url: rx.url, events: ['inventory.*'], secret: 'a-secret-of-16-chars!' }), headers: t.keyHeaders });
      expect(hook.status).toBe(201);
      const p = await product(t, { name: 'Alert lamp', inventory: { quantity: 10, low_stock_threshold: 5 } });
      const main = (await location(t, { name: 'Main', code: 'MAIN' })).body.data.id;
      const sub = await subscribe(wsClient(stack().gateway, t.keyHeaders), `subscription { inventoryAlerts(productId: "${p.id}") { event productId locationId sku name currentQuantity threshold product { name } } }`);
      try {
        await adjust(t, p.id, [{ location_id: main, quantity: -6, reason: 'sale' }]); // 10 → 4: crosses 5
        const e1 = await sub.next(5000);
        expect(e1.inventoryAlerts).toMatchObject({ event: 'inventory.low_stock', productId: p.id, locationId: main, currentQuantity: 4, threshold: 5, product: { name: 'Alert lamp' } });
        await adjust(t, p.id, [{ location_id: main, quantity: -1, reason: 'sale' }]); // 4 → 3: still below, no event
        await adjust(t, p.id, [{ location_id: main, quantity: -3, reason: 'sale' }]); // 3 → 0: out of stock
        const e2 = await sub.next(5000);
        expect(e2.inventoryAlerts).toMatchObject({ event: 'inventory.out_of_stock', currentQuantity: 0 });
        expect(await sub.quiet(300)).toBe(true);
        await adjust(t, p.id, [{ location_id: main, quantity: 10, reason: 'restock' }]); // back above: no alert
        await reserve(t, p.id, { quantity: 6, order_id: 'o' }); // 10 → 4 available: crosses again
        const e3 = await sub.next(5000);
        expect(e3.inventoryAlerts).toMatchObject({ event: 'inventory.low_stock', currentQuantity: 4, locationId: null });
      } finally {
        await sub.close();
      }
      const low = await rx.waitFor((r) => r.json?.event === 'inventory.low_stock');
      expect(low.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]+$/);
      expect(low.json.data).toMatchObject({ product_id: p.id, sku: p.attributes.sku, name: 'Alert lamp', current_quantity: 4, threshold: 5, location_id: main });
      await rx.waitFor((r) => r.json?.event === 'inventory.out_of_stock');
      await rx.waitFor((r) => r.json?.event === 'inventory.adjusted' && r.json.data.reason === 'restock');
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.received.filter((r) => r.json?.event === 'inventory.low_stock')).toHaveLength(2);
      expect(rx.received.filter((r) => r.json?.event === 'inventory.adjusted')).toHaveLength(4);
    } finally {
      await rx.close();
    }
  }, 30_000);

  test('inventoryEvents streams every stock event of the app; another app hears nothing', async () => {
    const t = await createTenant();
    const other = await createTenant();
    const p = await product(t, { inventory: { quantity: 3 } });
    const mine = await subscribe(wsClient(stack().gateway, t.keyHeaders), 'subscription { inventoryEvents { event productId delta totalQuantity reason } }');
    const theirs = await subscribe(wsClient(stack().gateway, other.keyHeaders), 'subscription { inventoryEvents { event } }');
    try {
      await adjust(t, p.id, [{ quantity: 2, reason: 'found' }]);
      expect((await mine.next(5000)).inventoryEvents).toEqual({ event: 'inventory.adjusted', productId: p.id, delta: 2, totalQuantity: 5, reason: 'found' });
      expect(await theirs.quiet(300)).toBe(true);
    } finally {
      await mine.close();
      await theirs.close();
    }
    const r = await gql('{ productInventory(productId: "' + p.id + '") { totalQuantity available } }', {}, t.keyHeaders);
    expect(r.body.data).toEqual({ productInventory: { totalQuantity: 5, available: 5 } });
  });
});
