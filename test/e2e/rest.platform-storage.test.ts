// Account object storage and the logo upload through the REST bridge (document 1): provisioning,
// presign → PUT (streamed by the bridge into the object store) → publish, the public logo URL, and
// the upload URL as a credential (tampered, expired, oversized, wrong type, forged receipt). Every
// refused upload leaves nothing in the store. The same flow on an S3 store: rest.uploads-s3.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { resolve } from 'node:path';
import { signUploadToken } from '../../lib/upload-token.js';
import { createTenant, gql, jsonApi, rest, stack, type Tenant } from '../harness/client.js';
import { putUpload, tinyPng, uploadLogo } from '../harness/platform-services.fixtures.js';
import { expectServiceError } from '../harness/security.js';

const P = 'platform';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const post = (path: string, type: string, attributes: Record<string, unknown>) => rest('POST', path, { headers: t.platformHeaders, body: jsonApi(type, attributes) });
const get = (path: string) => rest('GET', path, { headers: t.platformHeaders });

/** Every file under the account's directory in the local store (DATA_DIR/objects/<account id>). */
function storedFiles(accountId: string): string[] {
  const dir = resolve(stack().env.DATA_DIR, 'objects', accountId);
  return existsSync(dir) ? (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]).filter((d) => d.isFile()).map((d) => d.name) : [];
}

async function presign(tenant = t) {
  const p = await rest('POST', `/accounts/${tenant.accountUrlId}/logo/presign`, { headers: tenant.platformHeaders });
  expect(p.status).toBe(200);
  const url: string = p.body.data.attributes.upload_url;
  const token = url.split('/uploads/')[1];
  const grant = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
  return { id: p.body.data.id as string, url, token, grant, accountId: grant.o.account as string };
}

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
    expect(up.body.data.attributes).toMatchObject({ complete: true, bytes: png.length, content_type: 'image/png', sha256: createHash('sha256').update(png).digest('hex') });
    const staged = resolve(stack().env.DATA_DIR, 'objects', JSON.parse(Buffer.from(p.body.data.attributes.upload_url.split('/uploads/')[1].split('.')[0], 'base64url').toString()).k);
    expect(readFileSync(staged).equals(png)).toBe(true); // the bytes landed in the store as sent

    const pub = await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.body.data.id });
    expect(pub.status).toBe(200);
    expect(pub.body.data.attributes).toMatchObject({ format: 'png', content_type: 'image/png', width: 3, height: 2, bytes: png.length });
    const logoUrl = pub.body.data.attributes.logo_url;
    expect((await get(`/accounts/${t.accountUrlId}/details`)).body.data.attributes.branding.logo_url).toBe(logoUrl);

    const file = await fetch(logoUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);

    // an anonymous read of the file through GraphQL learns its type and size, never its storage key (which names the account)
    const [accountId, fileName] = new URL(logoUrl).pathname.split('/').slice(-2);
    const g = await gql('query($a: ID!, $f: String!) { accountLogoFile(accountId: $a, file: $f) { contentType bytes storageRef } }', { a: accountId, f: fileName }, {});
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.accountLogoFile).toMatchObject({ contentType: 'image/png', bytes: png.length });
    const ref: string = g.body.data.accountLogoFile.storageRef;
    expect(ref).not.toMatch(/logos|acct_/);
    expect(Buffer.from(ref.split('.').slice(2).join(''), 'base64url').toString('latin1')).not.toMatch(/logos|acct_/);
    const legacy = await gql('query($a: ID!, $f: String!) { accountLogoFile(accountId: $a, file: $f) { objectKey } }', { a: accountId, f: fileName }, {});
    expect(legacy.body.errors?.[0].message).toMatch(/Cannot query field "objectKey"/);
  });

  test('a 1.3 MB file streams into the store whole (one gateway call)', async () => {
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

  test('a non-image is refused at the PUT (415), whatever its content type said, and nothing is stored', async () => {
    const p = await presign();
    const before = storedFiles(p.accountId);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectServiceError(await putUpload(p.url, svg, 'image/png'), P, 415, 'UNSUPPORTED_MEDIA_TYPE', { parameter: 'body' });
    expect(storedFiles(p.accountId)).toEqual(before);
    expectServiceError(await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.id }), P, 404, 'UPLOAD_NOT_FOUND');
  });

  test('an image header the publish check refuses (a 20000 px side) → 422 invalid_image, and the staged file is deleted', async () => {
    const p = await presign();
    expect((await putUpload(p.url, tinyPng(20_000, 1))).status).toBe(200);
    expect(storedFiles(p.accountId)).toContain(p.id);
    expectServiceError(await post(`/accounts/${t.accountUrlId}/logo/publish`, 'logos', { upload_id: p.id }), P, 422, 'INVALID_IMAGE', { parameter: 'upload_id' });
    expect(storedFiles(p.accountId)).not.toContain(p.id);
  });

  test('over the cap while streaming (no Content-Length) → 413, and nothing is stored', async () => {
    const p = await presign();
    const before = storedFiles(p.accountId);
    const small = signUploadToken({ uploadId: p.grant.u, purpose: p.grant.r, owner: p.grant.o, key: p.grant.k, maxBytes: 100_000, expiresAt: Math.floor(Date.now() / 1000) + 60 }, stack().env.INTERNAL_SECRET);
    const body = Buffer.concat([tinyPng(), Buffer.alloc(300_000, 3)]);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < body.length; i += 64 * 1024) c.enqueue(new Uint8Array(body.subarray(i, i + 64 * 1024)));
        c.close();
      },
    });
    const r = await fetch(`${stack().rest}/uploads/${small}`, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: string }).error).toBe('payload_too_large');
    expect(storedFiles(p.accountId)).toEqual(before);
  });

  test('staged uploads not published within a day are removed at the next presign; fresh ones stay', async () => {
    const fresh = await createTenant();
    const old = await presign(fresh);
    expect((await putUpload(old.url, tinyPng())).status).toBe(200);
    const recent = await presign(fresh);
    expect((await putUpload(recent.url, tinyPng())).status).toBe(200);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(resolve(stack().env.DATA_DIR, 'objects', old.grant.k), twoDaysAgo, twoDaysAgo);
    await presign(fresh);
    expect(storedFiles(old.accountId).sort()).toEqual([recent.id]);
    expectServiceError(await rest('POST', `/accounts/${fresh.accountUrlId}/logo/publish`, { headers: fresh.platformHeaders, body: jsonApi('logos', { upload_id: old.id }) }), P, 404, 'UPLOAD_NOT_FOUND');
  });

  test('an upload whose mutation refuses it (the account was deleted after presign) → 404, and the object is removed', async () => {
    const doomed = await createTenant();
    const p = await presign(doomed);
    expect((await rest('DELETE', `/accounts/${doomed.accountUrlId}`, { headers: doomed.platformHeaders })).status).toBe(200);
    expectServiceError(await putUpload(p.url, tinyPng()), P, 404, 'ACCOUNT_NOT_FOUND');
    expect(storedFiles(p.accountId)).toEqual([]);
  });

  test('a client that hangs up mid-upload leaves nothing in the store', async () => {
    const p = await presign();
    const before = storedFiles(p.accountId);
    const { request } = await import('node:http');
    const req = request(p.url, { method: 'PUT', headers: { 'content-length': String(1024 * 1024) } });
    req.on('error', () => undefined);
    req.write(Buffer.concat([tinyPng(), Buffer.alloc(200_000, 5)]));
    await new Promise((r) => setTimeout(r, 300));
    req.destroy();
    for (let i = 0; i < 20 && storedFiles(p.accountId).length !== before.length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(storedFiles(p.accountId)).toEqual(before);
  });

  test("the upload mutation is public but needs the bridge's receipt: a forged reference is refused", async () => {
    const p = await presign();
    const object = { key: p.grant.k, size: 10, contentType: 'image/png', sha256: '0'.repeat(64), receipt: 'forged' };
    const r = await gql('mutation($t: String!, $o: StoredUploadInput!) { recordLogoUpload(token: $t, object: $o) { id } }', { t: p.token, o: object }, {});
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPLOAD_SIGNATURE_INVALID', status: 403 });
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
    const base = { uploadId: grant.u, purpose: grant.r, owner: grant.o, key: grant.k };
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
