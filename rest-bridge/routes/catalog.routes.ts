// Products service (document 3 part A): API key, products:read / products:write, JSON:API error
// list with the spec's UPPER_SNAKE codes. Included relations are nested in the product's
// attributes: `variants` and `categories` (in lists the first 5 of each, as summaries), `related`
// (get only), `images` (the product's images by position, as `product_images` resources).
import { DomainError } from '../../lib/errors.js';
import { resource } from '../jsonapi.js';
import { boolParam, getParam, intParam, listParam, type QueryParams } from '../query.js';
import type { ResourceObject, Route, RouteInput } from '../types.js';
import { CATALOG_PAGE } from '../contract-limits.js';

const LIST_INCLUDES = ['variants', 'categories', 'images'] as const;
const GET_INCLUDES = [...LIST_INCLUDES, 'related'] as const;

const base = { service: 'products', auth: 'apiKey' } as const;

/** the relations a product node may carry, rendered as nested resources rather than attributes */
const PRODUCT_RELATIONS: ReadonlySet<string> = new Set(['variants', 'categories', 'related', 'images']);
const PRODUCT_RELATIONS_AND_ATTRIBUTES: ReadonlySet<string> = new Set([...PRODUCT_RELATIONS, 'attributes']);

export function productRes(node: Record<string, any>, includes: ReadonlySet<string> = new Set()): ResourceObject {
  const { variants, categories, related, images } = node;
  // The spec names a product field `attributes`; JSON:API clients that flatten resources (kitsu)
  // read a nested `attributes` key as the resource's own and fail on null: unset, it is left out.
  const r = resource('products', node, { omit: node.attributes === null ? PRODUCT_RELATIONS_AND_ATTRIBUTES : PRODUCT_RELATIONS });
  if (Array.isArray(variants)) r.attributes.variants = variants.map((v: Record<string, unknown>) => resource('variants', v));
  if (Array.isArray(categories)) r.attributes.categories = categories.map((c: Record<string, unknown>) => resource('categories', c));
  if (Array.isArray(related)) r.attributes.related = related.map(relatedRes);
  if (includes.has('images')) r.attributes.images = Array.isArray(images) ? images.map((i: Record<string, unknown>) => resource('product_images', i)) : [];
  return r;
}

export function relatedRes(r: { relation: string; product: Record<string, unknown> }): ResourceObject {
  const res = resource('products', r.product);
  res.attributes.relation = r.relation;
  return res;
}

function includeVars(query: QueryParams, allowed: readonly string[]): { set: Set<string>; vars: Record<string, boolean> } {
  const set = listParam(query, 'include', allowed);
  return { set, vars: { withVariants: set.has('variants'), withCategories: set.has('categories'), withImages: set.has('images'), ...(allowed.includes('related') ? { withRelated: set.has('related') } : {}) } };
}

function optionalInt(query: QueryParams, name: string): number | undefined {
  return getParam(query, name) ? intParam(query, name, { default: 0, min: 0 }) : undefined;
}

function optionalDate(query: QueryParams, name: string): string | undefined {
  const raw = getParam(query, name);
  if (!raw) return undefined;
  if (!/^\d{4}-\d\d-\d\d/.test(raw) || Number.isNaN(new Date(raw).getTime())) throw new DomainError('BAD_REQUEST', `${name} must be an ISO 8601 date or date-time`, { parameter: name });
  return new Date(raw).toISOString();
}

/** The fields of `o` that are set: an unset filter is left out of the variables, not sent as null (no work at the subgraph). */
function setFields(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const k in o) {
    if (o[k] === undefined || o[k] === null || o[k] === '') continue;
    out[k] = o[k];
    any = true;
  }
  return any ? out : undefined;
}

function listVariables(r: RouteInput): Record<string, unknown> {
  const q = r.query;
  const inStock = getParam(q, 'filter[in_stock]');
  return {
    page: intParam(q, 'page[number]', { default: 1, min: 1 }),
    pageSize: intParam(q, 'page[size]', { default: CATALOG_PAGE.default, min: 1, max: CATALOG_PAGE.max }),
    sort: getParam(q, 'sort') || undefined,
    filter: setFields({
      status: getParam(q, 'filter[status]'),
      category: getParam(q, 'filter[category]'),
      inStock: inStock ? boolParam(q, 'filter[in_stock]') : undefined,
      type: getParam(q, 'filter[type]'),
      priceMin: optionalInt(q, 'filter[price_min]'),
      priceMax: optionalInt(q, 'filter[price_max]'),
      createdAfter: optionalDate(q, 'filter[created_after]'),
      search: getParam(q, 'search'),
      deleted: boolParam(q, 'filter[deleted]') || undefined,
    }),
    ...includeVars(q, LIST_INCLUDES).vars,
  };
}

// `rateLimit`: the spec's per-endpoint limits per minute per key; the bridge counts them (endpoint-limits.ts).
export const CATALOG_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/products',
    rateLimit: 100,
    operation: 'CreateProduct',
    summary: 'Create a product or bundle; relationships.categories assigns categories (products:write)',
    // the attributes are CreateProductInput's fields (derive.ts); attributes and metadata are free-form
    body: { type: 'products', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: productRes(d.createProduct) }),
    status: 201,
    responseType: 'products',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products',
    rateLimit: 1000,
    operation: 'ListProducts',
    summary: 'List products: filters, full-text search, sort, include=variants,categories,images (products:read)',
    query: [
      { name: 'page[number]', type: 'integer', description: 'default 1' },
      { name: 'page[size]', type: 'integer', description: `default ${CATALOG_PAGE.default}, at most ${CATALOG_PAGE.max}` },
      { name: 'filter[status]', type: 'string', description: 'active, draft, archived' },
      { name: 'filter[category]', type: 'string', description: 'category id or slug' },
      { name: 'filter[in_stock]', type: 'boolean' },
      { name: 'filter[type]', type: 'string', description: 'physical, digital, service, bundle' },
      { name: 'filter[price_min]', type: 'integer', description: 'cents' },
      { name: 'filter[price_max]', type: 'integer', description: 'cents' },
      { name: 'filter[created_after]', type: 'string', description: 'ISO 8601' },
      { name: 'filter[deleted]', type: 'boolean', description: 'soft-deleted products instead of live ones' },
      { name: 'search', type: 'string', description: 'full-text query over name, SKU and description' },
      { name: 'sort', type: 'string', description: 'name, -name, price, -price, created_at, -created_at (default -created_at; relevance with search)' },
      { name: 'include', type: 'string', description: 'comma list: variants and categories (the first 5 of each per product), images (the first 3 by position: id, url, alt_text, is_primary, thumbnails)' },
    ],
    // Out-of-range sizes are refused (400 naming page[size]) rather than clamped.
    variables: listVariables,
    result: (d, r) => {
      const { set } = includeVars(r.query, LIST_INCLUDES);
      return {
        data: d.products.items.map((p: Record<string, unknown>) => productRes(p, set)),
        meta: { total: d.products.total, page: d.products.page, per_page: d.products.pageSize },
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
    path: '/v1/products/:id',
    rateLimit: 2000,
    operation: 'GetProduct',
    summary: 'Get a product by identifier; include=variants,categories,images,related (products:read)',
    query: [{ name: 'include', type: 'string', description: 'comma list: variants, categories, images, related' }],
    variables: (r) => ({ id: r.params.id, ...includeVars(r.query, GET_INCLUDES).vars }),
    result: (d, r) => ({ data: productRes(d.product, includeVars(r.query, GET_INCLUDES).set) }),
    status: 200,
    responseType: 'products',
    scope: 'products:read',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products/sku/:sku',
    operation: 'GetProductBySku',
    summary: 'Get a product by SKU (products:read)',
    variables: (r) => ({ sku: r.params.sku }),
    result: (d) => ({ data: productRes(d.productBySku) }),
    status: 200,
    responseType: 'products',
    scope: 'products:read',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/v1/products/:id',
    rateLimit: 200,
    operation: 'UpdateProduct',
    summary: 'Update the attributes given (data.type products, data.id); status becoming active publishes product.published (products:write)',
    body: { type: 'products', input: 'input' },
    variables: (r) => ({ id: r.params.id, input: r.attributes }),
    result: (d) => ({ data: productRes(d.updateProduct) }),
    status: 200,
    responseType: 'products',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/products/:id',
    operation: 'DeleteProduct',
    summary: 'Soft delete (hidden, SKU reserved, restorable), or permanent=true (products:write)',
    query: [{ name: 'permanent', type: 'boolean', description: 'default false' }],
    variables: (r) => ({ id: r.params.id, permanent: boolParam(r.query, 'permanent') }),
    result: (d, r) => ({ data: resource('products', d.deleteProduct), meta: { deleted: true, permanent: boolParam(r.query, 'permanent') } }),
    status: 200,
    responseType: 'products',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/products/:id/restore',
    operation: 'RestoreProduct',
    summary: 'Restore a soft-deleted product (products:write)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: productRes(d.restoreProduct) }),
    status: 200,
    responseType: 'products',
    scope: 'products:write',
  },
];
