// JSON:API links and relationships derived from the route table and the schema (rest-bridge/resource-links.ts),
// checked on the real table: which canonical GET a resource's links.self follows, which foreign keys
// and relations become relationships, and which parents are linked.
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { deriveRoutes } from '../../rest-bridge/derive.js';
import { loadOperations } from '../../rest-bridge/operations.js';
import { linkDocument, singular } from '../../rest-bridge/resource-links.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';

const derived = deriveRoutes(ROUTES, loadOperations(), loadApiSchema());

function linksOf(method: string, path: string) {
  const route = ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return derived.get(route)!.links;
}

const link = (method: string, path: string, data: Record<string, unknown>, params: Record<string, string> = {}) => linkDocument({ data }, linksOf(method, path), params).data;

test('singular of the resource types', () => {
  expect(['indexes', 'categories', 'accounts', 'api_keys', 'data_transfers'].map(singular)).toEqual(['index', 'category', 'account', 'api_key', 'data_transfer']);
});

test('links.self follows the canonical GET: its last parameter from the attribute of that name (or its last word), else the id', () => {
  expect(link('POST', '/accounts', { id: 'acc_1', type: 'accounts', attributes: { url_id: 'acme', platform: { id: 'plat_1' } } })).toEqual({
    id: 'acc_1',
    type: 'accounts',
    attributes: { url_id: 'acme' },
    relationships: { platform: { data: { type: 'platforms', id: 'plat_1' } } },
    links: { self: '/accounts/acme' },
  });
  // an index is read by its uid (`:index_uid` ← `uid`), not its id
  expect(link('POST', '/search/v1/indexes', { id: 'idx_1', type: 'indexes', attributes: { uid: 'movies' } })).toMatchObject({ links: { self: '/search/v1/indexes/movies' } });
  // the accounts of /platforms/:pid/accounts stay under it (its :id takes the account's id)
  expect(link('POST', '/platforms/:pid/accounts', { id: 'acc_1', type: 'accounts', attributes: { url_id: 'acme' } }, { pid: 'p1' })).toMatchObject({
    links: { self: '/platforms/p1/accounts/acc_1' },
    relationships: { platform: { links: { related: '/platforms/p1' } } },
  });
  // a category found by slug links to its id path; a data transfer to its code
  expect(link('GET', '/v1/categories/slug/:slug', { id: 'cat_1', type: 'categories', attributes: { slug: 'shoes' } }, { slug: 'shoes' })).toMatchObject({ links: { self: '/v1/categories/cat_1' } });
  expect(link('POST', '/accounts/:url_id/data_transfers', { id: 'dt_1', type: 'data_transfers', attributes: { code: 'TR-1' } }, { url_id: 'acme' })).toMatchObject({ links: { self: '/accounts/acme/data_transfers/TR-1' } });
  // path values are encoded
  expect(link('GET', '/search/v1/indexes/:index_uid/documents/:document_id', { id: 'a/b', type: 'documents', attributes: {} }, { index_uid: 'movies', document_id: 'a/b' })).toMatchObject({
    links: { self: '/search/v1/indexes/movies/documents/a%2Fb' },
    relationships: { index: { links: { related: '/search/v1/indexes/movies' } } },
  });
});

test('no self link without a canonical GET: api_keys (never in a URL), apps, and singleton types such as reports', () => {
  expect(linksOf('POST', '/accounts/:url_id/apps/:app_id/api_keys').self).toBeUndefined();
  expect(linksOf('POST', '/accounts/:url_id/apps').self).toBeUndefined();
  expect(linksOf('GET', '/reporting/dashboard').self).toBeUndefined();
});

test('one task type: created by a document batch or read, an indexing task links to /search/v1/tasks/:id and its index', () => {
  const created = ROUTES.find((r) => r.method === 'POST' && r.path === '/search/v1/indexes/:index_uid/documents')!;
  const read = ROUTES.find((r) => r.method === 'GET' && r.path === '/search/v1/tasks/:task_id')!;
  expect([created.responseType, read.responseType]).toEqual(['indexing_tasks', 'indexing_tasks']);
  const task = { id: '7', type: 'indexing_tasks', attributes: { index_uid: 'movies', status: 'enqueued' } };
  expect(link('GET', '/search/v1/tasks/:task_id', structuredClone(task), { task_id: '7' })).toMatchObject({
    links: { self: '/search/v1/tasks/7' },
    relationships: { index: { links: { related: '/search/v1/indexes/movies' } } },
  });
  expect(link('POST', '/search/v1/indexes/:index_uid/documents', structuredClone(task), { index_uid: 'movies' })).toMatchObject({ links: { self: '/search/v1/tasks/7' } });
});

test('foreign keys become relationships beside their attributes; to-many ones too; free-form attributes never do', () => {
  expect(link('POST', '/v1/products/:product_id/variants', { id: 'var_1', type: 'variants', attributes: { product_id: 'prod_1' } }, { product_id: 'prod_1' })).toEqual({
    id: 'var_1',
    type: 'variants',
    attributes: { product_id: 'prod_1' },
    relationships: { product: { data: { type: 'products', id: 'prod_1' }, links: { related: '/v1/products/prod_1' } } },
  });
  const product = link('GET', '/v1/products/:id', { id: 'prod_1', type: 'products', attributes: { name: 'Shoe', category_ids: [{ id: 'c1' }, { id: 'c2' }] } }, { id: 'prod_1' });
  expect(product).toEqual({
    id: 'prod_1',
    type: 'products',
    attributes: { name: 'Shoe' },
    relationships: { categories: { data: [{ type: 'categories', id: 'c1' }, { type: 'categories', id: 'c2' }] } },
    links: { self: '/v1/products/prod_1' },
  });
  // a document's fields are data: a `product_id` field there is no relationship
  const doc = link('GET', '/search/v1/indexes/:index_uid/documents/:document_id', { id: '1', type: 'documents', attributes: { product_id: 'p1' } }, { index_uid: 'm', document_id: '1' }) as { relationships: object };
  expect(Object.keys(doc.relationships)).toEqual(['index']);
});

test('a relation rendered in the attributes (an include) has no relationship of the same name: one namespace', () => {
  const product = link('GET', '/v1/products/:id', { id: 'p1', type: 'products', attributes: { category_ids: [{ id: 'c1' }], categories: [{ id: 'c1', type: 'categories', attributes: { name: 'Shoes' } }] } }, { id: 'p1' }) as Record<string, unknown>;
  expect(product.relationships).toBeUndefined();
  expect(product.attributes).toEqual({ categories: [{ id: 'c1', type: 'categories', attributes: { name: 'Shoes' } }] });
});

test('a relation selected as { id } by a fragment and with more fields by the operation stays an attribute', () => {
  const account = link('GET', '/global/accounts', { id: 'a1', type: 'accounts', attributes: { url_id: 'acme', platform: { id: 'p1', code: 'P', name: 'Plat' } } }) as Record<string, any>;
  expect(account.attributes.platform).toEqual({ id: 'p1', code: 'P', name: 'Plat' });
  expect(account.relationships).toBeUndefined();
});
