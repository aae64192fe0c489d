// Fixtures of the product, variant, related, search and product-webhook routes for the shared
// security suite (security.ts): what their path params name, and the smallest valid bodies.
import { jsonApi, rest, uniq, type HttpResult } from './client.js';
import type { ParamFixture, SecTenant } from './security.js';

async function created(res: Promise<HttpResult>, what: string): Promise<HttpResult> {
  const r = await res;
  if (r.status !== 201) throw new Error(`fixture ${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const SIZES = ['S', 'M', 'L'];

async function newProduct(t: SecTenant, attrs: Record<string, unknown> = {}): Promise<{ id: string; sku: string }> {
  const sku = uniq('SKU-');
  const r = await created(rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Fixture', sku, ...attrs }), headers: t.keyHeaders }), 'product');
  return { id: r.body.data.id, sku };
}

/** A fresh product with a Size option (each variant create takes the next free size). */
async function optionProduct(t: SecTenant): Promise<string> {
  const { id } = await newProduct(t);
  const r = await rest('PUT', `/v1/products/${id}/options`, { body: { data: { options: [{ name: 'Size', values: SIZES }] } }, headers: t.keyHeaders });
  if (r.status !== 200) throw new Error(`fixture options: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return id;
}

/** The product of /v1/products/:product_id/...: fresh per call, so variant creates never collide. */
const optionsProductFixture: ParamFixture = {
  value: (t) => t.extra.optionProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.optionProduct = await optionProduct(t);
  },
};

const variantFixture: ParamFixture = {
  value: (t) => t.extra.variant,
  foreignCode: 'VARIANT_NOT_FOUND',
  ensure: async (t) => {
    const r = await created(
      rest('POST', `/v1/products/${t.extra.optionProduct}/variants`, { body: jsonApi('variants', { sku: uniq('VSKU-'), options: { Size: 'S' } }), headers: t.keyHeaders }),
      'variant',
    );
    t.extra.variant = r.body.data.id;
  },
};

/** A product deleted by the call: fresh each time. */
const deletableProduct: ParamFixture = {
  value: (t) => t.extra.deletable,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.deletable = (await newProduct(t)).id;
  },
};

/** A soft-deleted product, for restore: fresh each time. */
const deletedProduct: ParamFixture = {
  value: (t) => t.extra.deleted,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    const { id } = await newProduct(t);
    const r = await rest('DELETE', `/v1/products/${id}`, { headers: t.keyHeaders });
    if (r.status !== 200) throw new Error(`fixture delete: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    t.extra.deleted = id;
  },
};

const skuFixture: ParamFixture = {
  value: (t) => t.extra.skuOfProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.skuOfProduct ??= (await newProduct(t)).sku;
  },
};

const productWebhook: ParamFixture = {
  value: (t) => t.extra.productWebhook,
  foreignCode: 'NOT_FOUND',
  ensure: async (t) => {
    const r = await created(rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', PRODUCT_WEBHOOK()), headers: t.keyHeaders }), 'product webhook');
    t.extra.productWebhook = r.body.data.id;
  },
};

const PRODUCT_WEBHOOK = () => ({ url: 'http://127.0.0.1:9/hook', events: ['product.created'], secret: 'security-fixture-secret' });

export const PRODUCT_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  { path: /^\/v1\/products\/:id$/, method: 'DELETE', param: 'id', fixture: deletableProduct },
  { path: /^\/v1\/products\/:id\/restore$/, param: 'id', fixture: deletedProduct },
  { path: /^\/v1\/products\/:product_id\//, param: 'product_id', fixture: optionsProductFixture },
  { path: /^\/v1\/products\/:product_id\/variants\/:variant_id$/, param: 'variant_id', fixture: variantFixture },
  { path: /^\/v1\/products\/sku\/:sku$/, param: 'sku', fixture: skuFixture },
  { path: /^\/v1\/webhooks\/:id(\/deliveries)?$/, param: 'id', fixture: productWebhook },
];

/** Bodies that depend on the route, not only on data.type (`webhooks` is also the search service's type). */
export const PRODUCT_ROUTE_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  'POST /v1/webhooks': PRODUCT_WEBHOOK,
};

export const PRODUCT_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  variants: () => ({ sku: uniq('VSKU-'), options: { Size: 'M' } }),
  product_options: () => ({ options: [{ name: 'Size', values: SIZES }] }),
  related_products: (t) => ({ cross_sells: [t.extra.relatedTarget] }),
};

export const PRODUCT_UPDATE_BODIES: Record<string, () => Record<string, unknown>> = {
  products: () => ({ name: `Renamed ${uniq('')}` }),
  variants: () => ({ name: `Renamed ${uniq('')}` }),
};

/** What the routes' bodies refer to, created once per tenant. */
export async function ensureProductResources(route: { body?: { type: string } }, t: SecTenant): Promise<void> {
  if (route.body?.type === 'related_products') t.extra.relatedTarget ??= (await newProduct(t)).id;
}
