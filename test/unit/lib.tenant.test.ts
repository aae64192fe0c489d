// lib/tenant.ts: the gateway signs the tenant context; a subgraph accepts it only untampered, with
// the right secret, for itself (audience), with the body it was signed for, and within 30 seconds.
import { createHash, createHmac } from 'node:crypto';
import { TENANT_HEADER, TENANT_HEADER_MAX_AGE_MS, encodeTenantContext, hasScope, signTenantContext, verifyTenantContext, type TenantContext } from '../../lib/tenant.js';

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

const BODY = '{"query":"{ products { total } }","variables":{}}';
const B = { audience: 'catalog', body: BODY };

/** Replace one dot-separated part of a signed header, keeping the original signature. */
function withPart(header: string, index: number, value: string): string {
  const parts = header.split('.');
  parts[index] = value;
  return parts.join('.');
}

/** A header with a correct signature over arbitrary parts (what a holder of the secret could make). */
function handSigned(encoded: string, audience = 'catalog', iat = String(NOW), body = BODY): string {
  const hash = createHash('sha256').update(body).digest('base64url');
  const payload = `${encoded}.${audience}.${iat}.${hash}`;
  return `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url')}`;
}

describe('signTenantContext / verifyTenantContext', () => {
  test('the header name is x-tenant-context', () => {
    expect(TENANT_HEADER).toBe('x-tenant-context');
  });

  test('round trip returns the same context', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    expect(verifyTenantContext(header, SECRET, B, NOW + 1000)).toEqual({ ok: true, ctx });
  });

  test('an anonymous context round-trips', () => {
    const anon: TenantContext = { kind: 'anonymous', requestId: 'r', scopes: [] };
    expect(verifyTenantContext(signTenantContext(anon, SECRET, B, NOW), SECRET, B, NOW)).toEqual({ ok: true, ctx: anon });
  });

  test('the header is context.audience.iat.bodyhash.signature', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    const [encoded, audience, iat, hash, sig] = header.split('.');
    expect(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')).appId).toBe('app_1');
    expect([audience, Number(iat)]).toEqual(['catalog', NOW]);
    expect(hash).toBe(createHash('sha256').update(BODY).digest('base64url'));
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(header.startsWith(encodeTenantContext(ctx))).toBe(true);
  });

  // issue 12 item 5: a header captured for one request is refused on another
  test('replayed to another subgraph → wrong_audience', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    expect(verifyTenantContext(header, SECRET, { ...B, audience: 'platform' }, NOW)).toEqual({ ok: false, reason: 'wrong_audience' });
    expect(verifyTenantContext(withPart(header, 1, 'platform'), SECRET, { ...B, audience: 'platform' }, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('replayed with another operation or other variables → wrong_request', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    const other = '{"query":"mutation { deleteProduct(id: \\"p1\\") }","variables":{}}';
    expect(verifyTenantContext(header, SECRET, { ...B, body: other }, NOW)).toEqual({ ok: false, reason: 'wrong_request' });
    expect(verifyTenantContext(header, SECRET, { ...B, body: BODY.replace('{}', '{"x":1}') }, NOW)).toEqual({ ok: false, reason: 'wrong_request' });
    // the same bytes as a Buffer (what the subgraph reads) verify
    expect(verifyTenantContext(header, SECRET, { ...B, body: Buffer.from(BODY) }, NOW).ok).toBe(true);
  });

  test('expires after 30 seconds; an iat far in the future is refused too', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    expect(verifyTenantContext(header, SECRET, B, NOW + TENANT_HEADER_MAX_AGE_MS).ok).toBe(true);
    expect(verifyTenantContext(header, SECRET, B, NOW + TENANT_HEADER_MAX_AGE_MS + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyTenantContext(header, SECRET, B, NOW - TENANT_HEADER_MAX_AGE_MS - 1)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyTenantContext(handSigned(encodeTenantContext(ctx), 'catalog', 'soon'), SECRET, B, NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  test('a tampered context (widened scopes, other tenant) is a bad signature', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    expect(verifyTenantContext(withPart(header, 0, encodeTenantContext({ ...ctx, scopes: ['admin'] })), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(withPart(header, 0, encodeTenantContext({ ...ctx, appId: 'app_other' })), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(withPart(header, 2, String(NOW + 1)), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('only the canonical base64url spelling of the signature is accepted', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    const sig = header.split('.')[4];
    const standard = Buffer.from(sig, 'base64url').toString('base64'); // padded, + and /
    for (const other of [`${sig}!!`, `${sig}=`, standard]) {
      expect(verifyTenantContext(withPart(header, 4, other), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    expect(verifyTenantContext(header, SECRET, B, NOW)).toEqual({ ok: true, ctx });
  });

  test('a tampered, truncated or empty signature is a bad signature', () => {
    const header = signTenantContext(ctx, SECRET, B, NOW);
    const sig = header.split('.')[4];
    expect(verifyTenantContext(withPart(header, 4, (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(withPart(header, 4, sig.slice(0, -4)), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyTenantContext(withPart(header, 4, ''), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('a header signed with another secret is a bad signature', () => {
    expect(verifyTenantContext(signTenantContext(ctx, 'someone-elses-secret', B, NOW), SECRET, B, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  test('a correctly signed context that is not JSON, or not a context, is malformed', () => {
    expect(verifyTenantContext(handSigned(Buffer.from('{not json').toString('base64url')), SECRET, B, NOW)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyTenantContext(handSigned(Buffer.from('null').toString('base64url')), SECRET, B, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });

  test('missing and malformed headers (the old two-part format included)', () => {
    expect(verifyTenantContext(undefined, SECRET, B, NOW)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyTenantContext('', SECRET, B, NOW)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyTenantContext('no-dot-at-all', SECRET, B, NOW)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyTenantContext('payload.sig', SECRET, B, NOW)).toEqual({ ok: false, reason: 'malformed' });
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
