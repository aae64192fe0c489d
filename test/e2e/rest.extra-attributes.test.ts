// Attributes kept as given (lib/extra-attributes.ts, README "Unknown attributes → 422"): the records
// whose API document says they have fields it does not show keep an attribute the API does not
// list, answer it back among the attributes exactly as given, merge it on update (null removes it)
// and bound it; every other resource still refuses it with 422. Tenancy: another tenant never sees it.
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { sql } from '../harness/db.js';
import { expectServiceError } from '../harness/security.js';

const EXTRA = { colour: 'teal', shortDescription: 'camelCase is kept as written', po_number: 4711, tags: ['a', 'b'], nested: { deep: { x: [1, { y: null }] } } };

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
});

interface Recipe {
  /** the resource's `data.type` */
  type: string;
  create: (t: Tenant) => { method: string; path: string; attributes: Record<string, unknown> };
  /** a read through another request; answers the resource */
  read: (t: Tenant, created: any) => { path: string; pick?: (body: any) => any };
  /** the table holding the record, and its key column and value */
  table: string;
  key?: (created: any) => [string, string];
}

const acct = (t: Tenant) => `/accounts/${t.accountUrlId}`;
const byId = (id: string) => (b: any) => b.data.find((x: any) => x.id === id);

const RECIPES: Recipe[] = [
  {
    type: 'subscriptions',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/subscriptions`, attributes: { model_code: 'starter', trial: false } }),
    read: (t, c) => ({ path: `${acct(t)}/subscriptions/${c.id}` }),
    table: 'platform.subscriptions',
  },
  {
    type: 'block_licenses',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/blocks`, attributes: { block_unique_id: 'blk_crm' } }),
    read: (t, c) => ({ path: `${acct(t)}/blocks`, pick: byId(c.id) }),
    table: 'platform.block_licenses',
  },
  {
    type: 'user_accesses',
    create: (t) => ({ method: 'POST', path: '/user_accesses', attributes: { user_id: uniq('user_'), account_id: t.accountUrlId } }),
    read: (_t, c) => ({ path: `/users/${c.attributes.user_id}/accesses`, pick: byId(c.id) }),
    table: 'platform.user_accesses',
  },
  {
    type: 'data_transfers',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/data_transfers`, attributes: { title: 'Q3 export', recipient_email: 'buyer@example.com', agreement: 'I agree' } }),
    read: (t, c) => ({ path: `${acct(t)}/data_transfers/${c.attributes.code}` }),
    table: 'platform.data_transfers',
  },
  {
    type: 'account_details',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/details`, attributes: { legal_name: 'Acme GmbH' } }),
    read: (t) => ({ path: `${acct(t)}/details` }),
    table: 'platform.account_details',
    key: (c) => ['account_id', c.id],
  },
  {
    type: 'credentials',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/keys`, attributes: { name: uniq('stripe '), provider: 'stripe', secret: 'sk_live_abcdefgh12345678' } }),
    read: (t, c) => ({ path: `${acct(t)}/keys/${c.id}` }),
    table: 'platform.account_credentials',
  },
  {
    type: 'exchanges',
    create: (t) => ({ method: 'POST', path: `${acct(t)}/exchange`, attributes: { name: uniq('events '), broker_type: 'rabbitmq', url: 'amqp://broker.example.com:5672/' } }),
    read: (t, c) => ({ path: `${acct(t)}/exchange/${c.id}` }),
    table: 'platform.account_exchanges',
  },
  {
    type: 'notification_settings',
    create: (t) => ({ method: 'PATCH', path: `${acct(t)}/settings/notifications`, attributes: { enabled: true } }),
    read: (t) => ({ path: `${acct(t)}/settings/notifications` }),
    table: 'platform.account_notification_settings',
    key: (c) => ['account_id', c.id],
  },
];

const send = (t: Tenant, method: string, path: string, type: string, attributes: Record<string, unknown>) => rest(method, path, { headers: t.platformHeaders, body: jsonApi(type, attributes) });

describe.each(RECIPES)('$type keeps attributes the document does not show', (r) => {
  test('create with extra attributes → 2xx, answered as given; read back equal; stored in extra_attributes', async () => {
    const c = r.create(t);
    const created = await send(t, c.method, c.path, r.type, { ...c.attributes, ...EXTRA });
    expect(created.status).toBeLessThan(300);
    expect(created.body.data.attributes).toMatchObject(EXTRA);
    expect(created.body.data.attributes).not.toHaveProperty('extra_attributes');
    const read = r.read(t, created.body.data);
    const got = await rest('GET', read.path, { headers: t.platformHeaders });
    expect(got.status).toBe(200);
    const res = read.pick ? read.pick(got.body) : got.body.data;
    expect(res.attributes).toMatchObject(EXTRA);
    const [col, val] = r.key?.(created.body.data) ?? ['id', created.body.data.id];
    const [row] = await sql(`select extra_attributes from ${r.table} where ${col} = $1`, [val]);
    expect(row.extra_attributes).toEqual(EXTRA);
    // another tenant: the same read is not found, and nothing of it shows in its lists
    const foreign = await rest('GET', read.path.replace(t.accountUrlId, other.accountUrlId), { headers: other.platformHeaders });
    if (foreign.status === 200) expect(JSON.stringify(foreign.body)).not.toContain('teal');
    else expect(foreign.status).toBe(404);
  });
});

describe('updates merge key by key; null removes a key', () => {
  test('credentials PUT', async () => {
    const c = await send(t, 'POST', `${acct(t)}/keys`, 'credentials', { name: uniq('aws '), provider: 'aws', secret: 'abcdefgh12345678', region_hint: 'eu', owner: 'ops' });
    expect(c.status).toBe(201);
    const path = `${acct(t)}/keys/${c.body.data.id}`;
    const u = await send(t, 'PUT', path, 'credentials', { owner: null, rotation_days: 90 });
    expect(u.status).toBe(200);
    expect(u.body.data.attributes).toMatchObject({ region_hint: 'eu', rotation_days: 90 });
    expect(u.body.data.attributes).not.toHaveProperty('owner');
    const g = await rest('GET', path, { headers: t.platformHeaders });
    expect(g.body.data.attributes).toMatchObject({ region_hint: 'eu', rotation_days: 90, provider: 'aws' });
    expect(g.body.data.attributes).not.toHaveProperty('owner');
  });

  test('notification settings PATCH and account details PUT', async () => {
    const n = `${acct(t)}/settings/notifications`;
    await send(t, 'PATCH', n, 'notification_settings', { quiet_hours: '22-06', channel_label: '#ops' });
    const p = await send(t, 'PATCH', n, 'notification_settings', { quiet_hours: null });
    expect(p.body.data.attributes).toMatchObject({ channel_label: '#ops', enabled: true });
    expect(p.body.data.attributes).not.toHaveProperty('quiet_hours');
    const d = `${acct(t)}/details`;
    const put = await send(t, 'PUT', d, 'account_details', { vat_scheme: 'standard' });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({ vat_scheme: 'standard' });
  });
});

describe('documented attributes win; read-only ones stay ignored', () => {
  test('a read-only answered attribute (created_at) is not kept; a documented one is the documented field', async () => {
    const c = await send(t, 'POST', `${acct(t)}/exchange`, 'exchanges', { name: uniq('bus '), broker_type: 'nats', url: 'nats://nats.example.com:4222', created_at: '1999-01-01T00:00:00Z', region: 'eu' });
    expect(c.status).toBe(201);
    expect(c.body.data.attributes.created_at).not.toBe('1999-01-01T00:00:00Z');
    expect(c.body.data.attributes).toMatchObject({ broker_type: 'nats', region: 'eu' });
    const [row] = await sql('select extra_attributes from platform.account_exchanges where id = $1', [c.body.data.id]);
    expect(row.extra_attributes).toEqual({ region: 'eu' });
  });

  test('a key stored through GraphQL under a documented name never overrides it on REST', async () => {
    const c = await send(t, 'POST', `${acct(t)}/keys`, 'credentials', { name: uniq('gql '), provider: 'stripe', secret: 'abcdefgh12345678' });
    const id = c.body.data.id;
    const m = await gql(
      'mutation($a: String!, $id: ID!, $i: UpdateAccountCredentialInput!) { updateAccountCredential(accountUrlId: $a, id: $id, input: $i) { id extraAttributes } }',
      { a: t.accountUrlId, id, i: { extraAttributes: { provider: 'evil', note: 'x' } } },
      t.platformHeaders,
    );
    expect(m.body.errors).toBeUndefined();
    expect(m.body.data.updateAccountCredential.extraAttributes).toEqual({ provider: 'evil', note: 'x' });
    const g = await rest('GET', `${acct(t)}/keys/${id}`, { headers: t.platformHeaders });
    expect(g.body.data.attributes).toMatchObject({ provider: 'stripe', note: 'x' });
  });
});

describe('bounds: 422 naming the parameter, nothing written', () => {
  const path = () => `${acct(t)}/exchange`;
  const base = () => ({ name: uniq('bounded '), broker_type: 'kafka', url: 'kafka://kafka.example.com:9092' });

  test('a key that is not a plain name', async () => {
    expectServiceError(await send(t, 'POST', path(), 'exchanges', { ...base(), 'bad key!': 1 }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'bad key!' });
    expectServiceError(await send(t, 'POST', path(), 'exchanges', { ...base(), ['k'.repeat(65)]: 1 }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'k'.repeat(65) });
  });

  test('more than 64 keys, or more than 16 KiB', async () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
    expectServiceError(await send(t, 'POST', path(), 'exchanges', { ...base(), ...many }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'data.attributes' });
    expectServiceError(await send(t, 'POST', path(), 'exchanges', { ...base(), blob: 'x'.repeat(16 * 1024) }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'data.attributes' });
    // the bound holds for the merged record too: 40 + 40 keys
    const c = await send(t, 'POST', path(), 'exchanges', { ...base(), ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, i])) });
    expect(c.status).toBe(201);
    const more = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`b${i}`, i]));
    expectServiceError(await send(t, 'PUT', `${path()}/${c.body.data.id}`, 'exchanges', more), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'data.attributes' });
    const [row] = await sql('select extra_attributes from platform.account_exchanges where id = $1', [c.body.data.id]);
    expect(Object.keys(row.extra_attributes)).toHaveLength(40);
  });
});

describe('resources whose fields the documents show still refuse unknown attributes', () => {
  test('apps, API keys, products: 422 naming the attribute', async () => {
    expectServiceError(await send(t, 'POST', `${acct(t)}/apps`, 'apps', { name: 'x', colour: 'red' }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
    expectServiceError(await send(t, 'POST', `${acct(t)}/apps/${t.appId}/api_keys`, 'api_keys', { name: 'k', colour: 'red' }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
    expectServiceError(await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Mug', sku: uniq('X-'), colour: 'red' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
    // provisioning a block names its payload (block_unique_id): only licensing keeps extra attributes
    expectServiceError(await send(t, 'POST', `${acct(t)}/apps/${t.appId}/blocks`, 'block_instances', { block_unique_id: 'blk_crm', seats: 3 }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'seats' });
  });
});

test('prompts keep attributes beyond identifier, name, content and description; another tenant never sees them', async () => {
  const [u, stranger] = await Promise.all([aiUser(), aiUser()]);
  const c = await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Tagged', content: 'Hi {{name}}', model_hint: 'small', tags: ['greeting'] }), headers: u.headers });
  expect(c.status).toBe(201);
  expect(c.body.data.attributes).toMatchObject({ name: 'Tagged', model_hint: 'small', tags: ['greeting'] });
  const mine = (await rest('GET', '/prompts', { headers: u.headers })).body.data.find((p: any) => p.id === c.body.data.id);
  expect(mine.attributes).toMatchObject({ model_hint: 'small', tags: ['greeting'] });
  const theirs = await rest('GET', '/prompts', { headers: stranger.headers });
  expect(JSON.stringify(theirs.body)).not.toContain('model_hint');
  expectServiceError(await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'x', content: 'y', ['1bad']: true }), headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: '1bad' });
});

test('OpenAPI shows which bodies keep further attributes and which answers may carry them', async () => {
  const doc = (await rest('GET', '/openapi.json')).body;
  const path = (p: string) => doc.paths[p] ?? doc.paths[p.replace(/:(\w+)/g, '{$1}')];
  const attributesOf = (op: any) => op.requestBody.content['application/json'].schema.oneOf[0].properties.data.properties.attributes;
  const keys = path('/accounts/:url_id/keys').post;
  expect(attributesOf(keys).additionalProperties).toEqual({ description: expect.stringMatching(/kept as given/) });
  expect(attributesOf(keys).properties).not.toHaveProperty('extra_attributes');
  expect(JSON.stringify(keys.responses)).not.toContain('extra_attributes');
  expect(attributesOf(path('/accounts/:url_id/apps').post).additionalProperties).toBeUndefined();
});
