// Category routes of the products service (document 3 part A): API key, products:read / products:write,
// JSON:API error list with the spec's UPPER_SNAKE codes. Included relations are nested in the
// category's attributes: `children` (summaries: name, slug, parent_id, position) and `products`
// (summaries: name, sku, status, price; the first 10 per category in lists, 50 on a single get) as
// resource objects, `product_count` as a number; `tree=true` nests every level under `children`.
import { DomainError } from '../../lib/errors.js';
import { resource } from '../jsonapi.js';
import { boolParam, getParam, intParam, listParam, type QueryParams } from '../query.js';
import type { ResourceObject, Route, RouteInput } from '../types.js';
import { CATALOG_PAGE } from '../contract-limits.js';

const INCLUDES = ['children', 'products', 'product_count'] as const;

const base = { service: 'products', auth: 'apiKey' } as const;

export function categoryRes(node: Record<string, any>): ResourceObject {
  const { children, products, depth: _depth, ...rest } = node;
  const r = resource('categories', rest);
  if (Array.isArray(children)) r.attributes.children = children.map(categoryRes);
  if (Array.isArray(products)) r.attributes.products = products.map((p: Record<string, unknown>) => resource('products', p));
  return r;
}

/** The flat depth-first tree (each node with `depth`) nested into roots with `children` at every level. */
export function nestTree(nodes: Record<string, any>[]): ResourceObject[] {
  const roots: ResourceObject[] = [];
  const stack: { depth: number; res: ResourceObject }[] = [];
  for (const n of nodes) {
    const res = categoryRes(n);
    res.attributes.children = [];
    while (stack.length && stack[stack.length - 1].depth >= n.depth) stack.pop();
    if (stack.length) (stack[stack.length - 1].res.attributes.children as ResourceObject[]).push(res);
    else roots.push(res);
    stack.push({ depth: n.depth, res });
  }
  return roots;
}

/**
 * A body array of ids (absent: empty, which the service refuses naming the attribute); anything
 * else → 422 naming the attribute, before GraphQL would coerce a lone string into a list.
 */
export function stringList(v: unknown, parameter: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new DomainError('VALIDATION_FAILED', `${parameter} must be an array of id strings`, { parameter });
  return v;
}

function includes(query: QueryParams): { withChildren: boolean; withCount: boolean; withProducts: boolean } {
  const inc = listParam(query, 'include', INCLUDES);
  return { withChildren: inc.has('children'), withCount: inc.has('product_count'), withProducts: inc.has('products') };
}

/** filter[parent_id]: `null` (or empty) → roots only; an id → its children; absent → every category. */
function listVariables(r: RouteInput): Record<string, unknown> {
  const parent = getParam(r.query, 'filter[parent_id]');
  const roots = parent !== undefined && (parent === '' || parent === 'null');
  return {
    tree: boolParam(r.query, 'tree'),
    parentId: parent !== undefined && !roots ? parent : null,
    rootsOnly: roots,
    page: intParam(r.query, 'page[number]', { default: 1, min: 1 }),
    pageSize: intParam(r.query, 'page[size]', { default: CATALOG_PAGE.default, min: 1, max: CATALOG_PAGE.max }),
    ...includes(r.query),
  };
}

const includeQuery = { name: 'include', type: 'string', description: 'comma list: children, products, product_count' } as const;

export const CATALOG_CATEGORY_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/categories',
    operation: 'CreateCategory',
    summary: 'Create a category; parent_id null or absent for a root, slug derived from the name when absent (products:write)',
    body: { type: 'categories', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: categoryRes(d.createCategory) }),
    status: 201,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/categories',
    operation: 'ListCategories',
    summary: 'List categories by position; filter[parent_id]=null for roots; tree=true for the whole tree, nested, in one query (products:read)',
    query: [
      { name: 'filter[parent_id]', type: 'string', description: '`null` for root categories, or a category id for its children; with tree=true, the root of the subtree' },
      includeQuery,
      { name: 'tree', type: 'boolean', description: 'the whole tree, roots with children nested at every level (no paging)' },
      { name: 'page[number]', type: 'integer', description: 'default 1' },
      { name: 'page[size]', type: 'integer', description: `default ${CATALOG_PAGE.default}, at most ${CATALOG_PAGE.max}` },
    ],
    variables: listVariables,
    result: (d) =>
      d.categoryTree
        ? { data: nestTree(d.categoryTree), meta: { total: d.categoryTree.length } }
        : {
            data: d.categories.items.map(categoryRes),
            meta: { total: d.categories.total, page: d.categories.page, per_page: d.categories.pageSize },
          },
    status: 200,
    responseType: 'categories',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/categories/:id',
    operation: 'GetCategory',
    summary: 'Get a category (include: children, products, product_count) (products:read)',
    query: [includeQuery],
    variables: (r) => ({ id: r.params.id, ...includes(r.query) }),
    result: (d) => ({ data: categoryRes(d.category) }),
    status: 200,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/categories/slug/:slug',
    operation: 'GetCategoryBySlug',
    summary: 'Get a category by slug (include: children, products, product_count) (products:read)',
    query: [includeQuery],
    variables: (r) => ({ slug: r.params.slug, ...includes(r.query) }),
    result: (d) => ({ data: categoryRes(d.categoryBySlug) }),
    status: 200,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/v1/categories/:id',
    operation: 'UpdateCategory',
    summary: 'Update a category: rename, re-slug, move (parent_id; null for the roots) or reorder (position); a move under its own descendant is refused (products:write)',
    body: { type: 'categories', input: 'input' },
    variables: (r) => ({ id: r.params.id, input: r.attributes }),
    result: (d) => ({ data: categoryRes(d.updateCategory) }),
    status: 200,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/categories/:id',
    operation: 'DeleteCategory',
    summary: 'Delete a category without subcategories (409 CONFLICT otherwise); its product assignments go with it (products:write)',
    variables: (r) => ({ id: r.params.id }),
    result: (d) => ({ data: categoryRes(d.deleteCategory) }),
    status: 200,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/categories/:id/products',
    operation: 'AssignCategoryProducts',
    summary: 'Assign products: body data.product_ids; all or nothing (an unknown id → 404 PRODUCT_NOT_FOUND), idempotent (products:write)',
    body: { type: 'category_products', inData: true, args: ['productIds'] },
    variables: (r) => ({ id: r.params.id, productIds: stringList(r.attributes.productIds, 'product_ids') }),
    result: (d) => ({ data: categoryRes(d.assignCategoryProducts.category), meta: { added: d.assignCategoryProducts.added } }),
    status: 200,
    responseType: 'categories',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/categories/:id/products/:product_id',
    operation: 'RemoveCategoryProduct',
    summary: 'Remove one product from a category (products:write)',
    variables: (r) => ({ id: r.params.id, productId: r.params.product_id }),
    result: (d) => ({ data: categoryRes(d.removeCategoryProduct) }),
    status: 200,
    responseType: 'categories',
  },
];
