// Account services through the REST bridge (document 1): credentials (/keys), message-broker
// configurations (/exchange), details, storage, logo upload and notification webhooks. Security
// cases (no credentials, scopes, foreign tenants) for every row come from the shared suite.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { devMasterKey, SecretBox } from '../../lib/crypto.js';
import { signUploadToken } from '../../lib/upload-token.js';
import { verifyWebhook } from '../../lib/webhook-signature.js';
import { createTenant, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { sql } from '../harness/db.js';
import { putUpload, tinyPng, uploadLogo } from '../harness/platform-services.fixtures.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver, type Receiver } from '../harness/webhook-receiver.js';

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

describe('/accounts/:url_id/storage', () => {
  test('provisions a local directory store once; a second POST answers the same store', async () => {
    const fresh = await createTenant();
    const a = await rest('POST', `/accounts/${fresh.accountUrlId}/storage`, { headers: fresh.platformHeaders });
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ id: expect.stringMatching(/^stor_/), type: 'storage', attributes: { backend: 'local', location: expect.stringMatching(/^local:\/\/objects\/acct_/) } });
    const b = await rest('POST', `/accounts/${fresh.accountUrlId}/storage`, { headers: fresh.platformHeaders });
    expect(b.body.data.id).toBe(a.body.data.id);
    const accountId = a.body.data.attributes.location.split('/').pop();
    expect(existsSync(resolve(stack().env.DATA_DIR, 'objects', accountId))).toBe(true);
  });
});

describe('logo: presign → PUT → publish', () => {
  test('a real PNG becomes the logo; the logo URL serves the same bytes', async () => {
    const png = tinyPng(3, 2);
    const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
    expect(p.status).toBe(200);
    expect(p.body.data.attributes).toMatchObject({ method: 'PUT', max_bytes: 10 * 1024 * 1024, upload_url: expect.stringContaining(`${stack().rest}/uploads/`) });
    expect(new Date(p.body.data.attributes.expires_at).getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);

    const up = await putUpload(p.body.data.attributes.upload_url, png, 'image/png');
    expect(up.status).toBe(200);
    expect(up.body.data.attributes).toMatchObject({ complete: true, bytes: png.length });

    const pub = await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.body.data.id });
    expect(pub.status).toBe(200);
    expect(pub.body.data.attributes).toMatchObject({ format: 'png', content_type: 'image/png', width: 3, height: 2, bytes: png.length });
    const logoUrl = pub.body.data.attributes.logo_url;
    expect((await get(`/accounts/${t.accountUrlId}/details`)).body.data.attributes.branding.logo_url).toBe(logoUrl);

    const file = await fetch(logoUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  });

  test('a file larger than one chunk arrives whole (several gateway calls)', async () => {
    const big = Buffer.concat([tinyPng(8, 8), Buffer.alloc(1_300_000, 7)]); // trailing bytes after IEND: still a PNG header
    const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
    const up = await putUpload(p.body.data.attributes.upload_url, big);
    expect(up.status).toBe(200);
    expect(up.body.data.attributes).toMatchObject({ complete: true, bytes: big.length });
    const pub = await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.body.data.id });
    expect(pub.body.data.attributes).toMatchObject({ width: 8, height: 8, bytes: big.length });
    const file = await fetch(pub.body.data.attributes.logo_url);
    expect(Buffer.from(await file.arrayBuffer()).equals(big)).toBe(true);
  });

  test('a non-image is refused at publish (422 invalid_image), whatever its content type said', async () => {
    const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
    await putUpload(p.body.data.attributes.upload_url, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/png');
    expectServiceError(await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.body.data.id }), P, 422, 'INVALID_IMAGE', { parameter: 'upload_id' });
  });

  test('publish before any upload → 404; a malformed upload id → 422', async () => {
    const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
    expectServiceError(await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.body.data.id }), P, 404, 'UPLOAD_NOT_FOUND');
    expectServiceError(await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: '../../etc/passwd' }), P, 422, 'VALIDATION_FAILED', { parameter: 'upload_id' });
  });

  test("another account cannot publish this account's upload", async () => {
    const other = await createTenant();
    const uploadId = await uploadLogo(t);
    const r = await rest('POST', `/accounts/${other.accountUrlId}/logo/publish`, { headers: other.platformHeaders, body: jsonApi('logos', { upload_id: uploadId }) });
    expectServiceError(r, P, 404, 'UPLOAD_NOT_FOUND');
  });

  test('the upload URL is the credential: tampered → 403, expired → 410, over its signed size → 413', async () => {
    const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
    const url: string = p.body.data.attributes.upload_url;
    const token = url.split('/uploads/')[1];
    const [payload, mac] = token.split('.');
    const flipped = `${payload}.${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    expectServiceError(await putUpload(`${stack().rest}/uploads/${flipped}`, tinyPng()), P, 403, 'UPLOAD_SIGNATURE_INVALID');
    expectServiceError(await putUpload(`${stack().rest}/uploads/not-a-token`, tinyPng()), P, 403, 'UPLOAD_SIGNATURE_INVALID');

    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const secret = stack().env.INTERNAL_SECRET;
    const base = { uploadId: grant.u, accountId: grant.a, platformId: grant.p, key: grant.k };
    const expired = signUploadToken({ ...base, maxBytes: 1000, expiresAt: Math.floor(Date.now() / 1000) - 5 }, secret);
    expectServiceError(await putUpload(`${stack().rest}/uploads/${expired}`, tinyPng()), P, 410, 'UPLOAD_EXPIRED');
    const small = signUploadToken({ ...base, maxBytes: 20, expiresAt: Math.floor(Date.now() / 1000) + 60 }, secret);
    expectServiceError(await putUpload(`${stack().rest}/uploads/${small}`, tinyPng()), P, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('an unknown logo file → 404', async () => {
    const r = await rest('GET', `/logos/acct_nope/upl_x.png`);
    expectServiceError(r, P, 404, 'LOGO_NOT_FOUND');
  });
});

describe('/settings/notifications and account events to webhooks', () => {
  let hooks: Receiver;
  let chat: Receiver;
  let tenant: Tenant;
  let appSecret: string;
  const chatTries = new Map<string, number>();

  beforeAll(async () => {
    hooks = await startReceiver();
    // team chat answers 500 to the first try of every delivery, 200 to the retry
    chat = await startReceiver((r) => {
      const id = String(r.headers['x-webhook-delivery']);
      chatTries.set(id, (chatTries.get(id) ?? 0) + 1);
      return chatTries.get(id) === 1 ? 500 : 200;
    });
    tenant = await createTenant();
    const app = await rest('POST', `/accounts/${tenant.accountUrlId}/apps`, {
      headers: tenant.platformHeaders,
      body: jsonApi('apps', { name: 'Hooked', webhook_url: `${hooks.url}/hooks/platform` }),
    });
    const s = await rest('POST', `/accounts/${tenant.accountUrlId}/apps/${app.body.data.id}/webhook_secret`, { headers: tenant.platformHeaders });
    expect(s.status).toBe(201);
    appSecret = s.body.data.attributes.secret;
    expect(appSecret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
  });
  afterAll(async () => {
    await hooks.close();
    await chat.close();
  });

  test('defaults before anything is set', async () => {
    const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications`, { headers: tenant.platformHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toEqual({ team_chat_webhook_url: null, events: ['*'], enabled: true, updated_at: null });
  });

  test('PATCH stores the team-chat URL sealed and shows it masked', async () => {
    const url = `${chat.url}/services/T0001/B0002/verysecrettoken42`;
    const r = await rest('PATCH', `/accounts/${tenant.accountUrlId}/settings/notifications`, {
      headers: tenant.platformHeaders,
      body: jsonApi('notification_settings', { team_chat_webhook_url: url, events: ['key.*', 'details.updated'] }),
    });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ events: ['key.*', 'details.updated'], enabled: true });
    expect(r.body.data.attributes.team_chat_webhook_url).toBe(`${chat.url}/…en42`);
    const [row] = await sql(`select * from platform.account_notification_settings where account_id = $1`, [r.body.data.id]);
    expect(JSON.stringify(row)).not.toContain('verysecrettoken');
  });

  test.each([
    [{ events: ['nope.created'] }, 'events'],
    [{ events: ['bogus.*'] }, 'events'],
    [{ events: [] }, 'events'],
    [{ team_chat_webhook_url: 'ftp://chat.example.com/x' }, 'team_chat_webhook_url'],
    [{ team_chat_webhook_url: 'https://no-such-host.invalid/hook' }, 'team_chat_webhook_url'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    const r = await rest('PATCH', `/accounts/${tenant.accountUrlId}/settings/notifications`, { headers: tenant.platformHeaders, body: jsonApi('notification_settings', attributes) });
    expectServiceError(r, P, 422, 'VALIDATION_FAILED', { parameter });
  });

  test('key.created reaches the app webhook signed, and team chat after a retry (500, then 200)', async () => {
    const c = await rest('POST', `/accounts/${tenant.accountUrlId}/keys`, {
      headers: tenant.platformHeaders,
      body: jsonApi('credentials', { name: 'Webhook test', provider: 'github', secret: 'ghp_supersecretvalue00000000000000' }),
    });
    expect(c.status).toBe(201);
    const credentialId = c.body.data.id;

    const appHook = await hooks.waitFor((r) => r.json?.data?.credential_id === credentialId);
    expect(appHook.path).toBe('/hooks/platform');
    expect(appHook.headers['x-webhook-event']).toBe('key.created');
    expect(verifyWebhook(appSecret, appHook.body, appHook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(verifyWebhook('whsec_wrong', appHook.body, appHook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: false });
    expect(appHook.json).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      event: 'key.created',
      account_id: expect.stringMatching(/^acct_/),
      platform_id: expect.stringMatching(/^plat_/),
      data: { credential_id: credentialId, name: 'Webhook test', provider: 'github' },
    });
    expect(appHook.body).not.toContain('ghp_supersecret');

    const retried = await chat.waitFor((r) => r.headers['x-webhook-event'] === 'key.created' && r.headers['x-webhook-attempt'] === '2', 15_000);
    expect(retried.json).toEqual({ text: expect.stringContaining('"Webhook test"') });
    const first = chat.received.find((r) => r.headers['x-webhook-delivery'] === retried.headers['x-webhook-delivery'] && r.headers['x-webhook-attempt'] === '1')!;
    expect(retried.at - first.at).toBeGreaterThanOrEqual(200); // backoff: 300 ms ± 20 %

    // the delivery log shows both targets, the team-chat one delivered on its second attempt
    let deliveries: any[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?limit=10`, { headers: tenant.platformHeaders });
      deliveries = r.body.data.filter((d: any) => d.attributes.event === 'key.created');
      if (deliveries.length === 2 && deliveries.every((d) => d.attributes.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const chatDelivery = deliveries.find((d) => d.attributes.target_kind === 'team_chat');
    expect(chatDelivery.attributes).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200, url: `${chat.url}/…en42` });
    expect(deliveries.find((d) => d.attributes.target_kind === 'app').attributes).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  test('the event filter decides what team chat gets; app webhooks get every event', async () => {
    const x = await rest('POST', `/accounts/${tenant.accountUrlId}/exchange`, {
      headers: tenant.platformHeaders,
      body: jsonApi('exchanges', { name: uniq('filtered'), broker_type: 'nats', url: 'nats://n.example.com:4222' }),
    });
    const hook = await hooks.waitFor((r) => r.json?.data?.exchange_id === x.body.data.id);
    expect(hook.headers['x-webhook-event']).toBe('exchange.created');
    const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?status=delivered`, { headers: tenant.platformHeaders });
    const forExchange = r.body.data.filter((d: any) => d.attributes.event === 'exchange.created');
    expect(forExchange.map((d: any) => d.attributes.target_kind)).toEqual(['app']);
  });

  test('deliveries: a bad status filter → 422, a bad limit → 400', async () => {
    expectServiceError(await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?status=lost`, { headers: tenant.platformHeaders }), P, 422, 'VALIDATION_FAILED', {
      parameter: 'status',
    });
    expectServiceError(await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?limit=0`, { headers: tenant.platformHeaders }), P, 400, 'BAD_REQUEST', {
      parameter: 'limit',
    });
  });

  test('rolling the app secret: later deliveries are signed with the new one', async () => {
    const apps = await rest('GET', `/accounts/${tenant.accountUrlId}/apps`, { headers: tenant.platformHeaders });
    const appId = apps.body.data.find((a: any) => a.attributes.name === 'Hooked').id;
    const rolled = await rest('POST', `/accounts/${tenant.accountUrlId}/apps/${appId}/webhook_secret`, { headers: tenant.platformHeaders });
    const secret = rolled.body.data.attributes.secret;
    expect(secret).not.toBe(appSecret);
    const seen = hooks.received.length;
    const d = await rest('PUT', `/accounts/${tenant.accountUrlId}/details`, { headers: tenant.platformHeaders, body: jsonApi('account_details', { legal_name: uniq('Rolled ') }) });
    expect(d.status).toBe(200);
    const hook = await hooks.waitFor((r) => r.json?.event === 'details.updated' && hooks.received.indexOf(r) >= seen);
    expect(verifyWebhook(secret, hook.body, hook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(verifyWebhook(appSecret, hook.body, hook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: false, reason: 'mismatch' });
  });
});
