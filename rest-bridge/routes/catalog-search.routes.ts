// Product search, suggestions and product webhooks of the products service (document 3 part A).
import { resource } from '../jsonapi.js';
import { getParam, intParam, type QueryParams } from '../query.js';
import { webhookDeliveriesRoute } from './webhook-deliveries.js';
import type { Route } from '../types.js';
import { productRes } from './catalog.routes.js';

const base = { service: 'products', auth: 'apiKey' } as const;
const webhookRes = (w: Record<string, unknown>) => resource('webhooks', w);

function optionalInt(q: QueryParams, name: string): number | null {
  return getParam(q, name) ? intParam(q, name, { default: 0, min: 0 }) : null;
}

export const CATALOG_SEARCH_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/v1/products/search',
    rateLimit: 500,
    operation: 'SearchProducts',
    summary: 'Text search over active products (typo-tolerant, prefix, ranked) with facets and suggestions (products:read)',
    query: [
      { name: 'q', type: 'string' },
      { name: 'filters[category]', type: 'string', description: 'category id, slug or name' },
      { name: 'filters[brand]', type: 'string', description: 'attributes.brand' },
      { name: 'filters[price][min]', type: 'integer', description: 'cents' },
      { name: 'filters[price][max]', type: 'integer', description: 'cents' },
      { name: 'sort', type: 'string', description: 'relevance (default), name, -name, price, -price, created_at, -created_at' },
      { name: 'page', type: 'integer', description: 'default 1' },
      { name: 'per_page', type: 'integer', description: 'default 20, at most 100' },
    ],
    variables: (r) => ({
      q: getParam(r.query, 'q') ?? null,
      category: getParam(r.query, 'filters[category]') || null,
      brand: getParam(r.query, 'filters[brand]') || null,
      priceMin: optionalInt(r.query, 'filters[price][min]'),
      priceMax: optionalInt(r.query, 'filters[price][max]'),
      sort: getParam(r.query, 'sort') || null,
      page: intParam(r.query, 'page', { default: 1, min: 1 }),
      perPage: intParam(r.query, 'per_page', { default: 20, min: 1, max: 100 }),
    }),
    result: (d) => {
      const s = d.productSearch;
      return {
        data: s.items.map((p: Record<string, unknown>) => productRes(p)),
        meta: {
          total: s.total,
          page: s.page,
          per_page: s.perPage,
          facets: { category: s.facets.category, brand: s.facets.brand, price_range: s.facets.priceRange },
          suggestions: s.suggestions,
        },
      };
    },
    status: 200,
    responseType: 'products',
    list: true,
    scope: 'products:read',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products/search/suggest',
    operation: 'SuggestProducts',
    summary: 'Type-ahead: suggestions and products (id, name, image_url) for a prefix (products:read)',
    query: [
      { name: 'q', type: 'string' },
      { name: 'limit', type: 'integer', description: 'default 8, at most 20' },
    ],
    variables: (r) => ({ q: getParam(r.query, 'q') ?? '', limit: intParam(r.query, 'limit', { default: 8, min: 1, max: 20 }) }),
    result: (d) => ({
      // the document's shape: `data.suggestions` and `data.products`, right under data
      data: {
        id: 'suggest',
        type: 'product_suggestions',
        suggestions: d.productSuggest.suggestions,
        products: d.productSuggest.products.map((p: Record<string, unknown>) => ({ id: p.id, name: p.name, image_url: p.imageUrl })),
      },
    }),
    status: 200,
    responseType: 'product_suggestions',
    scope: 'products:read',
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/webhooks',
    operation: 'RegisterProductWebhook',
    summary: 'Register a webhook for catalog events: url, events, secret (products:write)',
    body: { type: 'webhooks', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: webhookRes(d.registerProductWebhook) }),
    status: 201,
    responseType: 'webhooks',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/webhooks',
    operation: 'ListProductWebhooks',
    summary: 'Webhooks of the calling app (products:read)',
    variables: () => ({}),
    result: (d) => ({ data: d.productWebhooks.map(webhookRes) }),
    status: 200,
    responseType: 'webhooks',
    list: true,
    scope: 'products:read',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/webhooks/:id',
    operation: 'ProductWebhook',
    summary: 'One active webhook of the calling app (products:read)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: webhookRes(d.productWebhook) }),
    status: 200,
    responseType: 'webhooks',
    scope: 'products:read',
  },
  webhookDeliveriesRoute({
    base,
    path: '/v1/webhooks/:id/deliveries',
    param: 'id',
    operation: 'ProductWebhookDeliveries',
    field: 'productWebhook',
    scope: 'products:read',
    summary: 'Latest deliveries of a webhook, each with every attempt (products:read)',
  }),
  {
    ...base,
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    operation: 'DeleteProductWebhook',
    summary: 'Deactivate a webhook (products:write)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: webhookRes(d.deleteProductWebhook) }),
    status: 200,
    responseType: 'webhooks',
    scope: 'products:write',
  },
];
