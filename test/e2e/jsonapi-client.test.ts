// A maintained JSON:API client from npm (kitsu) driving one flow per service, with only the
// options the spec's paths and types need (README, "JSON:API clients"): `pluralize: false`
// (singular paths such as /accounts/:url_id/exchange), `resourceCase: 'none'` and
// `camelCaseTypes: false` (snake_case types and paths: api_keys, data_transfers). Kitsu sends and
// accepts application/vnd.api+json.
import Kitsu from 'kitsu';
import { createTenant, mintToken, stack, uniq } from '../harness/client.js';

const client = (headers: Record<string, string>) => new Kitsu({ baseURL: stack().rest, headers, pluralize: false, resourceCase: 'none', camelCaseTypes: false });

test('platform: a platform, an account, an app and a key, read back', async () => {
  const code = uniq('p');
  const api = client({ Authorization: `Bearer ${mintToken()}`, 'X-Platform': code });
  const platform = await api.post('platforms', { code, name: `Platform ${code}` });
  expect(platform.data).toMatchObject({ type: 'platforms', code });
  const account = await api.post('accounts', { name: 'Kitsu account', code: uniq('a'), deployment_model: 'dedicated_cloud' });
  const urlId = account.data.url_id as string;
  expect(account.data).toMatchObject({ links: { self: `/accounts/${urlId}` }, platform: { data: { type: 'platforms', id: platform.data.id } } });
  expect((await api.get(account.data.links.self.slice(1))).data).toMatchObject({ type: 'accounts', url_id: urlId, name: 'Kitsu account' });
  const app = await api.post(`accounts/${urlId}/apps`, { name: 'Kitsu app', app_type: 'web', purpose: 'production' });
  expect(app.data.account).toMatchObject({ data: { type: 'accounts', id: account.data.id }, links: { related: `/accounts/${urlId}` } });
  const key = await api.post(`accounts/${urlId}/apps/${app.data.id}/api_keys`, { name: 'server', key_type: 'secret', environment: 'live' });
  expect(key.data).toMatchObject({ type: 'api_keys', key_id: expect.stringMatching(/^sk_live_/), app: { data: { type: 'apps', id: app.data.id } } });
  // a key is never addressed in a URL: no self link
  expect(key.data.links).toBeUndefined();
});

test('products: create, read, update, delete; an error arrives as JSON:API errors', async () => {
  const t = await createTenant();
  const api = client(t.keyHeaders);
  const sku = uniq('K-');
  const created = await api.post('v1/products', { name: 'Kitsu lamp', sku, price: { amount: 2500, currency: 'EUR' } });
  // kitsu copies attributes over the resource's members: the product's own `type` field (physical) wins
  expect(created.data).toMatchObject({ type: 'physical', name: 'Kitsu lamp', sku, price: { amount: 2500, formatted: '€25.00' } });
  const id = created.data.id as string;
  expect(created.data.links).toEqual({ self: `/v1/products/${id}` });
  expect((await api.get(`v1/products/${id}`)).data).toMatchObject({ id, sku });
  // relationships.categories, as sent on create and answered
  const category = await api.post('v1/categories', { name: `Kitsu ${sku}` });
  const filed = await api.post('v1/products', { name: 'Kitsu shelf', sku: `${sku}-2`, categories: { data: [{ type: 'categories', id: category.data.id }] } });
  expect(filed.data.categories).toMatchObject({ data: [{ type: 'categories', id: category.data.id }] });
  expect((await api.patch('v1/products', { id, name: 'Kitsu lamp II' })).data).toMatchObject({ id, name: 'Kitsu lamp II' });
  await api.delete('v1/products', id);
  const missing = await api.get('v1/products/prod_AAAAAAAAAAAAAAAAAAAA').catch((e: { errors?: { code: string }[] }) => e);
  expect((missing as { errors: { code: string }[] }).errors[0].code).toBe('PRODUCT_NOT_FOUND');
});

test('search: an index, documents (a task, polled to success), a search', async () => {
  const t = await createTenant();
  const api = client(t.keyHeaders);
  const uid = uniq('kitsu_');
  expect((await api.post('search/v1/indexes', { uid, primary_key: 'id' })).data).toMatchObject({ type: 'indexes' });
  const task = await api.post(`search/v1/indexes/${uid}/documents`, { documents: [{ id: '1', title: 'Blue lamp' }, { id: '2', title: 'Red chair' }] });
  // one type for a task, created or read; it links to itself and to its index
  expect(task.data).toMatchObject({ type: 'indexing_tasks', links: { self: `/search/v1/tasks/${task.data.id}` }, index: { links: { related: `/search/v1/indexes/${uid}` } } });
  let read = task.data;
  for (let i = 0; i < 100 && !['succeeded', 'failed'].includes(read.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    read = (await api.get(task.data.links.self.slice(1))).data;
  }
  expect(read).toMatchObject({ type: 'indexing_tasks', status: 'succeeded', documents_received: 2 });
  // kitsu's get() keeps four path segments: request() takes a deeper path
  expect((await api.request({ method: 'GET', url: `search/v1/indexes/${uid}/documents/1`, type: 'documents' })).data).toMatchObject({ links: { self: `/search/v1/indexes/${uid}/documents/1` }, index: { links: { related: `/search/v1/indexes/${uid}` } } });
  // a body type other than the path's last segment: kitsu's request() names it
  const found = await api.request({ method: 'POST', url: `search/v1/indexes/${uid}/search`, type: 'search_queries', body: { query: 'lamp' } });
  expect(found.data.hits.map((h: { id: string }) => h.id)).toEqual(['1']);
});

test('AI: a sentiment analysis for a registered user', async () => {
  const t = await createTenant();
  const user = uniq('user_');
  const api = client({ ...t.keyHeaders, Authorization: `Bearer ${mintToken({ sub: user, scopes: [] })}` });
  await api.request({ method: 'POST', url: `identities/${user}/register`, type: 'identities', body: {} });
  const r = await api.request({ method: 'POST', url: 'ai/v1/text/sentiment', type: 'sentiment_requests', body: { text: 'What a wonderful, helpful shop!' } });
  expect(r.data).toMatchObject({ type: 'sentiment_results', label: 'positive' });
});
