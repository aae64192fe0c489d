// Account services through the REST bridge (document 1): credentials (/keys), message-broker
// configurations (/exchange) and details; storage and the logo are in rest.platform-storage, the
// webhooks in rest.platform-notifications. Security cases (no credentials, scopes, foreign
// tenants) for every row come from the shared suite (security.routes.test.ts).
import { devMasterKey, SecretBox } from '../../lib/crypto.js';
import { createTenant, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { sql } from '../harness/db.js';
import { expectServiceError } from '../harness/security.js';

const P = 'platform';
// The test stack sets no MASTER_KEY: secrets are sealed under the documented development key.
const devBox = () => new SecretBox(devMasterKey(stack().env.JWT_SECRET));

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const post = (path: string, type: string, attributes: Record<string, unknown>) => rest('POST', path, { headers: t.platformHeaders, body: jsonApi(type, attributes) });
const put = (path: string, type: string, attributes: Record<string, unknown>) => rest('PUT', path, { headers: t.platformHeaders, body: jsonApi(type, attributes) });
const get = (path: string) => rest('GET', path, { headers: t.platformHeaders });

describe('/accounts/:url_id/keys (credentials)', () => {
  const secret = 'sk_live_51HxYzStripeSecretValue9876';

  test('create: 201, the secret never comes back, it is masked to its last four', async () => {
    const r = await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', {
      name: 'Stripe main',
      provider: 'Stripe',
      credential_type: 'api_key',
      identifier: 'acct_1Abc',
      secret,
      metadata: { someRegion: 'eu', Nested: { a: 1 } },
    });
    expect(r.status).toBe(201);
    expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(r.body.data).toMatchObject({
      id: expect.stringMatching(/^cred_/),
      type: 'credentials',
      attributes: {
        name: 'Stripe main',
        provider: 'stripe',
        credential_type: 'api_key',
        identifier: 'acct_1Abc',
        secret_masked: '••••9876',
        secret_last_four: '9876',
        metadata: { someRegion: 'eu', Nested: { a: 1 } },
      },
    });
    const list = await get(`/accounts/${t.accountUrlId}/keys`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.id)).toContain(r.body.data.id);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  test('encryption at rest: the row holds AES-256-GCM ciphertext bound to the row, never the plaintext', async () => {
    const r = await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', { name: uniq('aws '), provider: 'aws', credential_type: 'access_key', identifier: 'AKIAEXAMPLE', secret });
    const id = r.body.data.id;
    const [row] = await sql(`select * from platform.account_credentials where id = $1`, [id]);
    const everything = JSON.stringify(row);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(secret.slice(0, 12));
    expect(row.secret_sealed).toMatch(/^v1\.k[0-9a-f]{8}\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    // it is real AES-GCM under the documented development key, and opens only for its own row
    expect(devBox().open(row.secret_sealed, `credential:${id}:secret`)).toBe(secret);
    expect(() => devBox().open(row.secret_sealed, `credential:cred_other:secret`)).toThrow(/authentication failed/);
  });

  test('short secrets show no characters at all', async () => {
    const r = await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', { name: uniq('short '), provider: 'smtp', credential_type: 'basic_auth', secret: 'hunter2' });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({ secret_masked: '••••', secret_last_four: null });
  });

  test('show, update (rename + rotate the secret), delete', async () => {
    const c = await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', { name: uniq('sendgrid '), provider: 'sendgrid', secret: 'SG.aaaaaaaaaaaaaaaa.1111' });
    const id = c.body.data.id;
    const [before] = await sql(`select secret_sealed from platform.account_credentials where id = $1`, [id]);
    const shown = await get(`/accounts/${t.accountUrlId}/keys/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes.secret_masked).toBe('••••1111');

    const newName = uniq('sendgrid-renamed ');
    const u = await put(`/accounts/${t.accountUrlId}/keys/${id}`, 'credentials', { name: newName, secret: 'SG.bbbbbbbbbbbbbbbb.2222', metadata: { scope: 'mail.send' } });
    expect(u.status).toBe(200);
    expect(u.body.data.attributes).toMatchObject({ name: newName, provider: 'sendgrid', secret_masked: '••••2222', metadata: { scope: 'mail.send' } });
    expect(new Date(u.body.data.attributes.secret_updated_at).getTime()).toBeGreaterThanOrEqual(new Date(c.body.data.attributes.secret_updated_at).getTime());
    const [after] = await sql(`select secret_sealed from platform.account_credentials where id = $1`, [id]);
    expect(after.secret_sealed).not.toBe(before.secret_sealed);
    expect(devBox().open(after.secret_sealed, `credential:${id}:secret`)).toBe('SG.bbbbbbbbbbbbbbbb.2222');

    // PUT without a secret keeps it
    const keep = await put(`/accounts/${t.accountUrlId}/keys/${id}`, 'credentials', { identifier: 'apikey' });
    expect(keep.body.data.attributes).toMatchObject({ identifier: 'apikey', secret_masked: '••••2222' });

    const d = await rest('DELETE', `/accounts/${t.accountUrlId}/keys/${id}`, { headers: t.platformHeaders });
    expect(d.status).toBe(200);
    expect(d.body.data.id).toBe(id);
    expectServiceError(await get(`/accounts/${t.accountUrlId}/keys/${id}`), P, 404, 'CREDENTIAL_NOT_FOUND', { parameter: 'id' });
    expect(await sql(`select 1 from platform.account_credentials where id = $1`, [id])).toHaveLength(0);
  });

  test('a duplicate name in the account → 409 credential_name_taken', async () => {
    const name = uniq('dup ');
    expect((await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', { name, provider: 'x', secret: 'one-secret-value' })).status).toBe(201);
    const r = await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', { name, provider: 'x', secret: 'two-secret-value' });
    expectServiceError(r, P, 409, 'CREDENTIAL_NAME_TAKEN', { parameter: 'name' });
  });

  test.each([
    [{ name: 'n', provider: 'stripe' }, 'secret'],
    [{ name: 'n', provider: 'stripe', secret: '   ' }, 'secret'],
    [{ name: 'n', provider: 'Not A Provider!', secret: 'abc' }, 'provider'],
    [{ name: 'n', provider: 'stripe', secret: 'abc', credential_type: 'password' }, 'credential_type'],
    [{ name: '', provider: 'stripe', secret: 'abc' }, 'name'],
    [{ name: 'n', provider: 'stripe', secret: 'abc', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
    [{ name: 'n', provider: 'stripe', secret: 'x'.repeat(16_385) }, 'secret'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    expectServiceError(await post(`/accounts/${t.accountUrlId}/keys`, 'credentials', attributes), P, 422, 'VALIDATION_FAILED', { parameter });
  });

  test('unknown credential id → 404 on show, update and delete', async () => {
    const path = `/accounts/${t.accountUrlId}/keys/cred_doesnotexist000000`;
    expectServiceError(await get(path), P, 404, 'CREDENTIAL_NOT_FOUND');
    expectServiceError(await put(path, 'credentials', { name: 'x' }), P, 404, 'CREDENTIAL_NOT_FOUND');
    expectServiceError(await rest('DELETE', path, { headers: t.platformHeaders }), P, 404, 'CREDENTIAL_NOT_FOUND');
  });
});

describe('/accounts/:url_id/exchange (message brokers)', () => {
  test('user info in the URL moves out: the URL is stored bare, the password sealed', async () => {
    const r = await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', {
      name: 'events',
      broker_type: 'rabbitmq',
      url: 'amqps://app-user:s3cr3t-p%40ssword@rabbit.example.com:5671/prod',
      options: { exchangeName: 'platform.events', prefetch: 10 },
    });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({
      name: 'events',
      broker_type: 'rabbitmq',
      url: 'amqps://rabbit.example.com:5671/prod',
      username: 'app-user',
      has_password: true,
      password_masked: '••••word',
      options: { exchangeName: 'platform.events', prefetch: 10 },
      enabled: true,
    });
    expect(JSON.stringify(r.body)).not.toContain('s3cr3t');
    const [row] = await sql(`select * from platform.account_exchanges where id = $1`, [r.body.data.id]);
    expect(JSON.stringify(row)).not.toContain('s3cr3t');
    expect(devBox().open(row.secret_sealed, `exchange:${r.body.data.id}:secret`)).toBe('s3cr3t-p@ssword');
  });

  test('kafka and nats take several brokers; SQS takes its queue URL with access keys', async () => {
    const k = await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', { name: uniq('k'), broker_type: 'kafka', url: 'kafka+ssl://b1.example.com:9093,b2.example.com:9093' });
    expect(k.status).toBe(201);
    expect(k.body.data.attributes).toMatchObject({ url: 'kafka+ssl://b1.example.com:9093,b2.example.com:9093', has_password: false, password_masked: null });
    const s = await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', {
      name: uniq('sqs'),
      broker_type: 'sqs',
      url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/events',
      username: 'AKIAIOSFODNN7EXAMPLE',
      password: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      options: { region: 'eu-west-1' },
    });
    expect(s.status).toBe(201);
    expect(s.body.data.attributes).toMatchObject({ username: 'AKIAIOSFODNN7EXAMPLE', password_masked: '••••EKEY' });
  });

  test.each([
    [{ name: 'a', broker_type: 'rabbitmq', url: 'redis://cache:6379' }, 'url'],
    [{ name: 'a', broker_type: 'redis', url: 'redis://a:6379,b:6379' }, 'url'],
    [{ name: 'a', broker_type: 'nats', url: 'not a url' }, 'url'],
    [{ name: 'a', broker_type: 'kafka', url: 'kafka://b1:99999' }, 'url'],
    [{ name: 'a', broker_type: 'mqtt', url: 'mqtt://x:1883' }, 'broker_type'],
    [{ name: 'a', url: 'amqp://x' }, 'broker_type'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    expectServiceError(await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', attributes), P, 422, 'VALIDATION_FAILED', { parameter });
  });

  test('update: a new broker type re-checks the URL; password null removes it; delete', async () => {
    const c = await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', { name: uniq('cache'), broker_type: 'redis', url: 'redis://:pw-0123456789@cache.example.com:6379/0' });
    const path = `/accounts/${t.accountUrlId}/exchange/${c.body.data.id}`;
    expectServiceError(await put(path, 'exchanges', { broker_type: 'kafka' }), P, 422, 'VALIDATION_FAILED', { parameter: 'url' });
    const u = await put(path, 'exchanges', { password: null, enabled: false, options: { db: 1 } });
    expect(u.status).toBe(200);
    expect(u.body.data.attributes).toMatchObject({ has_password: false, enabled: false, options: { db: 1 }, url: 'redis://cache.example.com:6379/0' });
    const moved = await put(path, 'exchanges', { broker_type: 'nats', url: 'nats://n1.example.com:4222,n2.example.com:4222' });
    expect(moved.body.data.attributes).toMatchObject({ broker_type: 'nats', url: 'nats://n1.example.com:4222,n2.example.com:4222' });
    expect((await get(path)).body.data.attributes.broker_type).toBe('nats');
    expect((await rest('DELETE', path, { headers: t.platformHeaders })).status).toBe(200);
    expectServiceError(await get(path), P, 404, 'EXCHANGE_NOT_FOUND');
  });

  test('duplicate name → 409 exchange_name_taken', async () => {
    const name = uniq('dup');
    await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', { name, broker_type: 'nats', url: 'nats://n:4222' });
    expectServiceError(await post(`/accounts/${t.accountUrlId}/exchange`, 'exchanges', { name, broker_type: 'nats', url: 'nats://n:4222' }), P, 409, 'EXCHANGE_NAME_TAKEN');
  });
});

describe('/accounts/:url_id/details', () => {
  test('empty until saved; POST once (409 after); PUT merges nested objects; logo_url is read-only', async () => {
    const fresh = await createTenant();
    const h = { headers: fresh.platformHeaders };
    const path = `/accounts/${fresh.accountUrlId}/details`;
    const empty = await rest('GET', path, h);
    expect(empty.status).toBe(200);
    expect(empty.body.data.attributes).toMatchObject({ legal_name: null, address: { country: null }, branding: { logo_url: null }, created_at: null });

    const created = await rest('POST', path, {
      ...h,
      body: jsonApi('account_details', {
        legal_name: 'Shop GmbH',
        website: 'https://shop.example.com',
        address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'de' },
        contact: { name: 'Ada', email: 'ada@shop.example.com', phone: '+49 30 1234567' },
        branding: { primary_color: '#0AF', secondary_color: '#112233', logo_url: 'https://evil.example.com/x.png' },
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({
      legal_name: 'Shop GmbH',
      address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
      contact: { email: 'ada@shop.example.com' },
      branding: { primary_color: '#00aaff', secondary_color: '#112233', logo_url: null },
    });
    expectServiceError(await rest('POST', path, { ...h, body: jsonApi('account_details', { legal_name: 'again' }) }), P, 409, 'DETAILS_ALREADY_EXIST');

    const updated = await rest('PUT', path, { ...h, body: jsonApi('account_details', { address: { city: 'Hamburg', line1: null }, branding: { accent_color: '#abcdef' } }) });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      legal_name: 'Shop GmbH',
      address: { line1: null, city: 'Hamburg', postal_code: '10115', country: 'DE' },
      branding: { primary_color: '#00aaff', accent_color: '#abcdef' },
    });
  });

  test('PUT creates details when there are none', async () => {
    const fresh = await createTenant();
    const r = await rest('PUT', `/accounts/${fresh.accountUrlId}/details`, { headers: fresh.platformHeaders, body: jsonApi('account_details', { tax_id: 'DE123456789' }) });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.tax_id).toBe('DE123456789');
  });

  test.each([
    [{ address: { country: 'XX' } }, 'address.country'],
    [{ address: { country: 'Germany' } }, 'address.country'],
    [{ branding: { primary_color: 'blue' } }, 'branding.primary_color'],
    [{ contact: { email: 'not-an-email' } }, 'contact.email'],
    [{ contact: { phone: 'call me' } }, 'contact.phone'],
    [{ website: 'ftp://x.example.com' }, 'website'],
    [{ address: { planet: 'Mars' } }, 'address.planet'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    expectServiceError(await put(`/accounts/${t.accountUrlId}/details`, 'account_details', attributes), P, 422, 'VALIDATION_FAILED', { parameter });
  });
});
