// Collection routes of the products service (document 3 part A): API key, products:read / products:write.
// Not in the spec (Shopify has them): GET, PATCH and DELETE of one collection.
import { resource } from '../jsonapi.js';
import { boolParam, getParam, intParam } from '../query.js';
import type { Route } from '../types.js';
import { stringList } from './catalog-categories.routes.js';
import { CATALOG_PAGE } from '../contract-limits.js';

const base = { service: 'products', auth: 'apiKey' } as const;
const collectionRes = (c: Record<string, unknown>) => resource('collections', c);
const pageQuery = [
  { name: 'page[number]', type: 'integer', description: 'default 1' },
  { name: 'page[size]', type: 'integer', description: `default ${CATALOG_PAGE.default}, at most ${CATALOG_PAGE.max}` },
] as const;
const paging = (q: Parameters<typeof intParam>[0]) => ({
  page: intParam(q, 'page[number]', { default: 1, min: 1 }),
  pageSize: intParam(q, 'page[size]', { default: CATALOG_PAGE.default, min: 1, max: CATALOG_PAGE.max }),
});

export const CATALOG_COLLECTION_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/collections',
    operation: 'CreateCollection',
    summary: 'Create a manual collection, or an automated one with rules { match: all|any, conditions: [{ field, operator, value }] } (products:write)',
    body: { type: 'collections', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: collectionRes(d.createCollection) }),
    status: 201,
    responseType: 'collections',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/collections',
    operation: 'ListCollections',
    summary: 'List collections, newest first; filter[type], filter[status], filter[active]=true for the ones live now (products:read)',
    query: [
      ...pageQuery,
      { name: 'filter[type]', type: 'string', description: 'manual or automated', graphql: 'type' },
      { name: 'filter[status]', type: 'string', description: 'active, draft or archived', graphql: 'status' },
      { name: 'filter[active]', type: 'boolean', description: 'true: status active and the present inside [start_date, end_date)' },
    ],
    variables: (r) => ({
      ...paging(r.query),
      type: getParam(r.query, 'filter[type]') || null,
      status: getParam(r.query, 'filter[status]') || null,
      activeOnly: boolParam(r.query, 'filter[active]'),
    }),
    result: (d) => ({
      data: d.collections.items.map(collectionRes),
      meta: { total: d.collections.total, page: d.collections.page, per_page: d.collections.pageSize },
    }),
    status: 200,
    responseType: 'collections',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/collections/:id',
    operation: 'GetCollection',
    summary: 'Get a collection (products:read)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: collectionRes(d.collection) }),
    status: 200,
    responseType: 'collections',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/v1/collections/:id',
    operation: 'UpdateCollection',
    summary: 'Update a collection (its type stays) (products:write)',
    body: { type: 'collections', input: 'input' },
    variables: (r) => ({ id: r.params.id, input: r.attributes }),
    result: (d) => ({ data: collectionRes(d.updateCollection) }),
    status: 200,
    responseType: 'collections',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/collections/:id',
    operation: 'DeleteCollection',
    summary: 'Delete a collection; the products stay (products:write)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: collectionRes(d.deleteCollection) }),
    status: 200,
    responseType: 'collections',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/collections/:id/products',
    operation: 'ListCollectionProducts',
    summary: "The collection's products, paged: manual by position, automated by its rules evaluated now (products:read)",
    query: [...pageQuery, { name: 'sort', type: 'string', description: 'position (manual only; their default), name, -name, price, -price, created_at, -created_at (automated default)' }],
    variables: (r) => ({ id: r.params.id, ...paging(r.query), sort: getParam(r.query, 'sort') || null }),
    result: (d) => ({
      data: d.collectionProducts.items.map((p: Record<string, unknown>) => resource('products', p)),
      meta: { total: d.collectionProducts.total, page: d.collectionProducts.page, per_page: d.collectionProducts.pageSize },
    }),
    status: 200,
    responseType: 'products',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/collections/:id/products',
    operation: 'AddCollectionProducts',
    summary: 'Append products to a manual collection: body data.product_ids, in order; all or nothing, idempotent (products:write)',
    body: { type: 'collection_products', inData: true, args: ['productIds'] },
    variables: (r) => ({ id: r.params.id, productIds: stringList(r.attributes.productIds, 'product_ids') }),
    result: (d) => ({ data: collectionRes(d.addCollectionProducts.collection), meta: { added: d.addCollectionProducts.added } }),
    status: 200,
    responseType: 'collections',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/collections/:id/products/:product_id',
    operation: 'RemoveCollectionProduct',
    summary: 'Remove a product from a manual collection (products:write)',
    variables: (r) => ({ id: r.params.id, productId: r.params.product_id }),
    result: (d) => ({ data: collectionRes(d.removeCollectionProduct) }),
    status: 200,
    responseType: 'collections',
  },
];
