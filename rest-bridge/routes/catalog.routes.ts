// Products service (document 3 part A): API key, JSON:API error list with the spec's UPPER_SNAKE codes.
import { resource } from '../jsonapi.js';
import { intParam } from '../query.js';
import type { Route } from '../types.js';

const productRes = (p: Record<string, unknown>) => resource('products', p);

export const MAX_PAGE_SIZE = 100;

const base = { service: 'products', auth: 'apiKey' } as const;

export const CATALOG_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/products',
    operation: 'CreateProduct',
    summary: 'Create a product (products:write)',
    // the attributes are CreateProductInput's fields (derive.ts); attributes and metadata are JSONObject: free-form
    body: { type: 'products', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: productRes(d.createProduct) }),
    status: 201,
    responseType: 'products',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products',
    operation: 'ListProducts',
    summary: 'List products, newest first (products:read)',
    query: [
      { name: 'page[number]', type: 'integer', description: 'default 1' },
      { name: 'page[size]', type: 'integer', description: `default 20, at most ${MAX_PAGE_SIZE}` },
    ],
    // Out-of-range sizes are refused (400 naming page[size]) rather than clamped, as the catalog does.
    variables: (r) => ({
      page: intParam(r.query, 'page[number]', { default: 1, min: 1 }),
      pageSize: intParam(r.query, 'page[size]', { default: 20, min: 1, max: MAX_PAGE_SIZE }),
    }),
    result: (d) => ({
      data: d.products.items.map(productRes),
      meta: { total: d.products.total, page: d.products.page, per_page: d.products.pageSize },
    }),
    status: 200,
    responseType: 'products',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products/:id',
    operation: 'GetProduct',
    summary: 'Get a product by identifier (products:read)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: productRes(d.product) }),
    status: 200,
    responseType: 'products',
  },
];
