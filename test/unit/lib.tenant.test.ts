// lib/tenant.ts: the gateway signs the tenant context; a subgraph accepts it only untampered,
// with the right secret and within five minutes.
import { createHmac } from 'node:crypto';
import { TENANT_HEADER, hasScope, signTenantContext, verifyTenantContext, type TenantContext } from '../../lib/tenant.js';

const SECRET = 'unit-internal-secret';
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

const ctx: TenantContext = {
  kind: 'key',
  requestId: 'req-1',
  scopes: ['products:read', 'products:write'],
  userId: 'usr_1',
  userScopes: ['profile:read'],
  platformCode: 'acme',
  appId: 'app_1',
  keyId: 'key_1',
  environment: 'live',
  accountId: 'acc_1',
  platformId: 'plt_1',
  plan: 'pro',
};

/** HMAC-SHA256 over the base64url payload, as the signer does, for payloads the signer would never produce. */
function handSigned(body: object): string {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url')}`;
}

/** Replace the payload part of a signed header, keeping the original signature. */
function withPayload(header: string, payload: object): string {
  const sig = header.slice(header.indexOf('.') + 1);
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
}

describe('signTenantContext / verifyTenantContext', () => {
  test('the header name is x-tenant-context', () => {
    expect(TENANT_HEADER).toBe('x-tenant-context');
  });

  test('round trip returns the same context without iat', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    const r = verifyTenantContext(header, SECRET, NOW + 1000);
    expect(r).toEqual({ ok: true, ctx });
    if (r.ok) expect('iat' in r.ctx).toBe(false);
  });

  test('an anonymous context round-trips', () => {
    const anon: TenantContext = { kind: 'anonymous', requestId: 'r', scopes: [] };
    expect(verifyTenantContext(signTenantContext(anon, SECRET, NOW), SECRET, NOW)).toEqual({ ok: true, ctx: anon });
  });

  test('the header is payload.signature in base64url', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    expect(header).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const payload = JSON.parse(Buffer.from(header.split('.')[0], 'base64url').toString('utf8'));
    expect(payload.iat).toBe(NOW);
    expect(payload.appId).toBe('app_1');
  });

  test('a tampered payload (widened scopes) is a bad signature', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    const forged = withPayload(header, { ...ctx, scopes: ['admin'], iat: NOW });
    expect(verifyTenantContext(forged, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('a tampered payload (other tenant) is a bad signature', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    const forged = withPayload(header, { ...ctx, appId: 'app_other', iat: NOW });
    expect(verifyTenantContext(forged, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('a tampered signature is a bad signature', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    const [payload, sig] = header.split('.');
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(verifyTenantContext(`${payload}.${flipped}`, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(`${payload}.${sig.slice(0, -4)}`, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(`${payload}.`, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('a header signed with another secret is a bad signature', () => {
    const header = signTenantContext(ctx, 'someone-elses-secret', NOW);
    expect(verifyTenantContext(header, SECRET, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('expires after five minutes (injected now)', () => {
    const header = signTenantContext(ctx, SECRET, NOW);
    expect(verifyTenantContext(header, SECRET, NOW + 5 * 60_000).ok).toBe(true);
    expect(verifyTenantContext(header, SECRET, NOW + 5 * 60_000 + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyTenantContext(header, SECRET, NOW + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
  });

  test('a correctly signed payload without a numeric iat counts as expired', () => {
    expect(verifyTenantContext(handSigned({ ...ctx }), SECRET, NOW)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyTenantContext(handSigned({ ...ctx, iat: String(NOW) }), SECRET, NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  test('a correctly signed payload that is not JSON is malformed', () => {
    const payload = Buffer.from('{not json').toString('base64url');
    const sig = createHmac('sha256', SECRET).update(payload).digest('base64url');
    expect(verifyTenantContext(`${payload}.${sig}`, SECRET, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });

  test('missing header', () => {
    expect(verifyTenantContext(undefined, SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyTenantContext('', SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
  });

  test('malformed headers', () => {
    expect(verifyTenantContext('no-dot-at-all', SECRET, NOW)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyTenantContext('.sigonly', SECRET, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('hasScope', () => {
  test('exact scope membership', () => {
    expect(hasScope(ctx, 'products:read')).toBe(true);
    expect(hasScope(ctx, 'products:delete')).toBe(false);
    expect(hasScope(ctx, 'products')).toBe(false);
    // user scopes accompanying a key do not count as the key's scopes
    expect(hasScope(ctx, 'profile:read')).toBe(false);
  });
});
