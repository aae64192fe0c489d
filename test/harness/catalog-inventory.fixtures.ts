// The security suite's fixtures of the inventory write and reservation routes
// (docs/catalog-inventory.md): one location and one product with plenty of stock per tenant for the
// level, adjust and reserve routes; a reservation of that product for each call of a reservation
// route (release, commit and fulfil change the reservation's state, so every call gets a fresh one,
// committed first for fulfil).
import { jsonApi, rest, uniq } from './client.js';
import type { ParamFixture, SecTenant } from './security.js';

async function created(what: string, r: Promise<{ status: number; body: any }>, status = 201): Promise<any> {
  const res = await r;
  if (res.status !== status) throw new Error(`fixture ${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The tenant's location and stocked product, made once. */
async function ensureStock(t: SecTenant): Promise<void> {
  if (t.extra.stockProduct) return;
  t.extra.location ??= (await created('location', rest('POST', '/v1/inventory/locations', { body: jsonApi('locations', { name: 'Fixture', code: uniq('L') }), headers: t.keyHeaders }))).data.id;
  const body = jsonApi('products', { name: 'Stock fixture', sku: uniq('INV-'), inventory: { quantity: 100_000, track_stock: true } });
  t.extra.stockProduct = (await created('stock product', rest('POST', '/v1/products', { body, headers: t.keyHeaders }))).data.id;
}

const stockProduct: ParamFixture = { value: (t) => t.extra.stockProduct, foreignCode: 'PRODUCT_NOT_FOUND', ensure: ensureStock };

/** A new reservation of one unit per call (committed when `commit`). */
function freshReservation(commit: boolean): ParamFixture {
  return {
    value: (t) => t.extra.reservation,
    foreignCode: 'RESERVATION_NOT_FOUND',
    ensure: async (t) => {
      await ensureStock(t);
      const expires = new Date(Date.now() + 3_600_000).toISOString();
      const r = await created('reservation', rest('POST', `/v1/products/${t.extra.stockProduct}/inventory/reserve`, { body: { data: { quantity: 1, order_id: uniq('ord-'), expires_at: expires } }, headers: t.keyHeaders }));
      t.extra.reservation = r.data.id;
      if (commit) await created('commit', rest('POST', `/v1/inventory/reservations/${r.data.id}/commit`, { headers: t.keyHeaders }), 200);
    },
  };
}

export const INVENTORY_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  { path: /^\/v1\/products\/:id\/inventory(\/|$)/, param: 'id', fixture: stockProduct },
  { path: /^\/v1\/inventory\/reservations\/:reservation_id\/fulfill$/, param: 'reservation_id', fixture: freshReservation(true) },
  { path: /^\/v1\/inventory\/reservations\/:reservation_id(\/commit)?$/, param: 'reservation_id', fixture: freshReservation(false) },
];

export const INVENTORY_ROUTE_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  'PUT /v1/products/:id/inventory': (t) => ({ locations: [{ location_id: t.extra.location, quantity: 100_000 }] }),
  'POST /v1/products/:id/inventory/adjust': (t) => ({ adjustments: [{ location_id: t.extra.location, quantity: 1, reason: 'security suite', reference: uniq('ref-') }] }),
  'POST /v1/products/:id/inventory/reserve': () => ({ quantity: 1, order_id: uniq('ord-'), expires_at: new Date(Date.now() + 3_600_000).toISOString() }),
  'POST /v1/inventory/locations': () => ({ name: 'Security fixture', code: uniq('L') }),
};
