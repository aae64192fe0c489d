// Fixtures of the category, collection and pricing routes for the shared security suite
// (security.ts): what their path params name, and the smallest valid body of each data.type.
import { jsonApi, rest, uniq, type HttpResult } from './client.js';
import type { ParamFixture, SecTenant } from './security.js';

async function created(res: Promise<HttpResult>, what: string): Promise<HttpResult> {
  const r = await res;
  if (r.status !== 201) throw new Error(`fixture ${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

async function newProduct(t: SecTenant, attrs: Record<string, unknown> = {}): Promise<string> {
  return (await created(rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Fixture', sku: uniq('SKU-'), ...attrs }), headers: t.keyHeaders }), 'product')).body.data.id;
}

const SCHEDULED = () => ({ name: 'Fixture sale', price: { amount: 900, currency: 'USD' }, starts_at: new Date().toISOString() });

async function newCategory(t: SecTenant): Promise<{ id: string; slug: string }> {
  const r = await created(rest('POST', '/v1/categories', { body: jsonApi('categories', { name: uniq('Fixture ') }), headers: t.keyHeaders }), 'category');
  return { id: r.body.data.id, slug: r.body.data.attributes.slug };
}

/** The tenant's fixture category; a fresh one when the route deletes it. */
function category(fresh: boolean): ParamFixture {
  return {
    value: (t) => t.extra.category,
    foreignCode: 'CATEGORY_NOT_FOUND',
    ensure: async (t) => {
      if (!fresh && t.extra.category) return;
      const c = await newCategory(t);
      t.extra.category = c.id;
      t.extra.categorySlug = c.slug;
    },
  };
}

/** A product of the fixture category, assigned again before every call (DELETE removes it). */
const categoryProduct: ParamFixture = {
  value: (t) => t.extra.categoryProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.categoryProduct ??= await newProduct(t);
    const r = await rest('POST', `/v1/categories/${t.extra.category}/products`, { body: { data: { product_ids: [t.extra.categoryProduct] } }, headers: t.keyHeaders });
    if (r.status !== 200) throw new Error(`fixture category product: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  },
};

/** The tenant's fixture (manual) collection; a fresh one when the route deletes it. */
function collection(fresh: boolean): ParamFixture {
  return {
    value: (t) => t.extra.collection,
    foreignCode: 'COLLECTION_NOT_FOUND',
    ensure: async (t) => {
      if (!fresh && t.extra.collection) return;
      const r = await created(rest('POST', '/v1/collections', { body: jsonApi('collections', { name: uniq('Fixture ') }), headers: t.keyHeaders }), 'collection');
      t.extra.collection = r.body.data.id;
    },
  };
}

/** A product of the fixture collection, added again before every call (DELETE removes it). */
const collectionProduct: ParamFixture = {
  value: (t) => t.extra.collectionProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.collectionProduct ??= await newProduct(t);
    const r = await rest('POST', `/v1/collections/${t.extra.collection}/products`, { body: { data: { product_ids: [t.extra.collectionProduct] } }, headers: t.keyHeaders });
    if (r.status !== 200) throw new Error(`fixture collection product: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  },
};

/** A product with a price of its own (its effective price needs no currency parameter). */
const pricedProduct: ParamFixture = {
  value: (t) => t.extra.pricedProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    t.extra.pricedProduct ??= await newProduct(t, { price: { amount: 1000, currency: 'USD' } });
  },
};

/** A scheduled price of the tenant's fixture product, fresh for every call (DELETE removes it). */
const scheduledPrice: ParamFixture = {
  value: (t) => t.extra.scheduledPrice,
  foreignCode: 'NOT_FOUND',
  ensure: async (t) => {
    t.productId ??= await newProduct(t);
    const r = await created(rest('POST', `/v1/products/${t.productId}/scheduled-prices`, { body: jsonApi('scheduled_price', SCHEDULED()), headers: t.keyHeaders }), 'scheduled price');
    t.extra.scheduledPrice = r.body.data.id;
  },
};

export const TAXONOMY_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  { path: /^\/v1\/categories\/:id$/, method: 'DELETE', param: 'id', fixture: category(true) },
  { path: /^\/v1\/categories\/:id(\/|$)/, param: 'id', fixture: category(false) },
  { path: /^\/v1\/categories\/:id\/products\/:product_id$/, param: 'product_id', fixture: categoryProduct },
  { path: /^\/v1\/collections\/:id$/, method: 'DELETE', param: 'id', fixture: collection(true) },
  { path: /^\/v1\/collections\/:id(\/|$)/, param: 'id', fixture: collection(false) },
  { path: /^\/v1\/collections\/:id\/products\/:product_id$/, param: 'product_id', fixture: collectionProduct },
  { path: /^\/v1\/products\/:id\/price$/, param: 'id', fixture: pricedProduct },
  { path: /^\/v1\/products\/:id\/scheduled-prices\/:scheduled_price_id$/, param: 'scheduled_price_id', fixture: scheduledPrice },
  {
    path: /^\/v1\/categories\/slug\/:slug$/,
    param: 'slug',
    fixture: { value: (t) => t.extra.categorySlug, foreignCode: 'CATEGORY_NOT_FOUND', ensure: category(false).ensure },
  },
];

export const TAXONOMY_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  categories: () => ({ name: uniq('Security fixture ') }),
  category_products: (t) => ({ product_ids: [t.extra.bodyProduct] }),
  collections: () => ({ name: uniq('Security fixture ') }),
  collection_products: (t) => ({ product_ids: [t.extra.bodyProduct] }),
  product_prices: () => ({ prices: [{ amount: 1000, currency: 'USD' }, { amount: 900, currency: 'EUR' }] }),
  price_tiers: () => ({ tiers: [{ min_quantity: 1, max_quantity: 9, price: { amount: 1000, currency: 'USD' } }, { min_quantity: 10, price: { amount: 900, currency: 'USD' } }] }),
  customer_prices: () => ({ prices: [{ customer_group_id: 'vip', price: { amount: 800, currency: 'USD' } }] }),
  scheduled_price: SCHEDULED,
};

export const TAXONOMY_UPDATE_BODIES: Record<string, () => Record<string, unknown>> = {
  categories: () => ({ name: `Renamed ${uniq('')}` }),
  collections: () => ({ name: `Renamed ${uniq('')}` }),
};

/** What the routes' bodies refer to, created once per tenant. */
export async function ensureTaxonomyResources(route: { body?: { type: string } }, t: SecTenant): Promise<void> {
  if (route.body?.type === 'category_products' || route.body?.type === 'collection_products') t.extra.bodyProduct ??= await newProduct(t);
}
