// gateway/auth/authenticate.ts: headers in, a TenantContext or a typed failure out. The key
// verifier is the real ApiKeyVerifier over a plain lookup function and in-process limiter/counter.
import { signJwt } from '../../gateway/auth/jwt.js';
import { clientAddressResolver, signClientAddress, verifyClientAddress } from '../../lib/client-address.js';
import { ApiKeyVerifier, hashKey, type KeyLookup, type KeyRecord } from '../../gateway/auth/api-key.js';
import { clientIp, createAuthenticator, type Headers } from '../../gateway/auth/authenticate.js';
import { MemoryRateLimiter, MemoryUsageCounter } from '../../lib/rate-limit.js';

const JWT_SECRET = 'unit-jwt-secret';
const APP = 'app_8Fq2LmN0pQr4StUv6WxY';
const KEY = 'sk_live_sh_4f9Qz7LmP2xWc8RbT1yN';
const PK = 'pk_test_sh_Zx81LmQ02pw9rT5kVv7a';

const keyRecord: KeyRecord = {
  keyId: 'key_1',
  appId: APP,
  accountId: 'acc_1',
  platformId: 'plt_1',
  platformCode: 'acme',
  environment: 'live',
  keyType: 'secret',
  scopes: ['products:read', 'products:write'],
  rateLimitPerMinute: 2,
  allowedIps: ['10.0.0.0/8'],
  allowedOrigins: [],
  expiresAt: null,
  revoked: false,
  appStatus: 'active',
  plan: 'pro',
};
const publishable: KeyRecord = { ...keyRecord, keyId: 'key_2', keyType: 'publishable', environment: 'test', scopes: ['products:read'], allowedIps: [], rateLimitPerMinute: null, plan: undefined };

function setup() {
  const records = new Map([
    [hashKey(KEY), keyRecord],
    [hashKey(PK), publishable],
  ]);
  const lookups: string[] = [];
  // like the platform's _verifyApiKey: a key is found only under its own app
  const lookup: KeyLookup = async (appId, keyHash) => {
    lookups.push(keyHash);
    const r = records.get(keyHash);
    return r && r.appId === appId ? r : null;
  };
  const keys = new ApiKeyVerifier(lookup, new MemoryRateLimiter(), new MemoryUsageCounter(), { ttlMs: 30_000 });
  return { auth: createAuthenticator({ jwtSecret: JWT_SECRET, keys }), lookups };
}

const nowSec = () => Math.floor(Date.now() / 1000);
const userJwt = (claims: Record<string, unknown> = {}) => signJwt({ sub: 'usr_1', scope: 'profile:read products:read', exp: nowSec() + 600, ...claims }, JWT_SECRET);

describe('createAuthenticator', () => {
  test('no credentials → anonymous, with the request id and platform code passed through', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ 'x-request-id': 'req-42', 'x-platform': 'acme' }, '10.0.0.1');
    expect(r).toEqual({ ok: true, tenant: { kind: 'anonymous', requestId: 'req-42', scopes: [], platformCode: 'acme', clientAddress: '10.0.0.1' } });
  });

  test('a request id is generated when absent', async () => {
    const { auth } = setup();
    const a = await auth.authenticate({}, undefined);
    const b = await auth.authenticate({}, undefined);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.tenant.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.tenant.requestId).not.toBe(b.tenant.requestId);
      expect(a.tenant).not.toHaveProperty('platformCode');
    }
  });

  test('a user JWT → kind user with its scopes, subject and X-Platform', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt()}`, 'x-platform': 'acme', 'x-request-id': 'r1' }, '127.0.0.1');
    expect(r).toEqual({
      ok: true,
      tenant: { kind: 'user', requestId: 'r1', userId: 'usr_1', scopes: ['profile:read', 'products:read'], userScopes: ['profile:read', 'products:read'], platformCode: 'acme' },
      credentials: { jwtExpiresAt: expect.any(Number) },
    });
  });

  test('the Bearer scheme is case-insensitive and header arrays use their first value', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: [`bearer   ${userJwt()}`, 'Bearer other'] }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { kind: 'user', userId: 'usr_1' } });
  });

  test('a JWT platform claim fills in the platform code when X-Platform is absent', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt({ platform: 'acme' })}` }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { kind: 'user', platformCode: 'acme' } });
  });

  test('a JWT platform claim equal to X-Platform is fine', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt({ platform: 'acme' })}`, 'x-platform': 'acme' }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { kind: 'user', platformCode: 'acme' } });
  });

  test('a JWT platform claim differing from X-Platform → FORBIDDEN', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt({ platform: 'acme' })}`, 'x-platform': 'globex' }, undefined);
    expect(r).toEqual({ ok: false, code: 'FORBIDDEN', message: 'This token is scoped to another platform' });
  });

  test.each([
    ['expired', () => userJwt({ exp: nowSec() - 1 }), 'Bearer token rejected: expired'],
    ['another secret', () => signJwt({ sub: 'usr_1', exp: nowSec() + 60 }, 'wrong-secret'), 'Bearer token rejected: bad signature'],
    ['not yet valid', () => userJwt({ nbf: nowSec() + 600 }), 'Bearer token rejected: not yet valid'],
    ['without sub', () => signJwt({ sub: '', exp: nowSec() + 600 }, JWT_SECRET), 'Bearer token rejected: missing sub'],
    ['without exp', () => signJwt({ sub: 'usr_1' }, JWT_SECRET), 'Bearer token rejected: missing exp'],
    ['living longer than the cap', () => userJwt({ exp: nowSec() + 30 * 86_400 }), 'Bearer token rejected: lifetime too long'],
  ])('a JWT %s → INVALID_TOKEN with its typed reason', async (_name, token, message) => {
    const { auth } = setup();
    const reason = message.replace('Bearer token rejected: ', '').replace(/ /g, '_');
    expect(await auth.authenticate({ authorization: `Bearer ${token()}` }, undefined)).toEqual({ ok: false, code: 'INVALID_TOKEN', message, reason });
  });

  test('an API key via X-Api-Key → kind key with the key’s tenant', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ 'x-api-key': KEY, 'x-app-id': APP, 'x-request-id': 'r2' }, '10.1.1.1');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tenant).toEqual({
      kind: 'key',
      requestId: 'r2',
      scopes: ['products:read', 'products:write'],
      appId: APP,
      keyId: 'key_1',
      environment: 'live',
      keyType: 'secret',
      accountId: 'acc_1',
      platformId: 'plt_1',
      platformCode: 'acme',
      plan: 'pro',
    });
    expect(r.rateLimit).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
  });

  test('an API key via Bearer', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${PK}`, 'x-app-id': APP }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { kind: 'key', keyId: 'key_2', environment: 'test', scopes: ['products:read'] } });
    if (r.ok) expect(r.tenant).not.toHaveProperty('plan');
  });

  test('the key’s platform wins over X-Platform', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${PK}`, 'x-app-id': APP, 'x-platform': 'globex' }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { platformCode: 'acme' } });
  });

  test('a JWT and an X-Api-Key together → kind key, with the user id and user scopes', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt()}`, 'x-api-key': PK, 'x-app-id': APP }, undefined);
    expect(r).toMatchObject({
      ok: true,
      tenant: { kind: 'key', userId: 'usr_1', userScopes: ['profile:read', 'products:read'], scopes: ['products:read'], keyId: 'key_2' },
    });
  });

  test('a JWT for another platform fails even with a valid key', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ authorization: `Bearer ${userJwt({ platform: 'globex' })}`, 'x-api-key': PK, 'x-app-id': APP, 'x-platform': 'acme' }, undefined);
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  test('an API key without X-App-Id → UNAUTHENTICATED, no lookup', async () => {
    const { auth, lookups } = setup();
    expect(await auth.authenticate({ 'x-api-key': KEY }, '10.0.0.1')).toEqual({ ok: false, code: 'UNAUTHENTICATED', message: 'X-App-Id header is required with an API key' });
    expect(await auth.authenticate({ authorization: `Bearer ${KEY}` }, '10.0.0.1')).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(lookups).toHaveLength(0);
  });

  test('a Bearer value that is neither a JWT nor a key, without X-App-Id → INVALID_TOKEN saying what a JWT is', async () => {
    const { auth, lookups } = setup();
    for (const token of ['abc.def', 'eyJhbGciOiJIUzI1NiJ9.cut', 'not-a-token']) {
      const r = await auth.authenticate({ authorization: `Bearer ${token}`, 'x-platform': 'acme' }, '10.0.0.1');
      expect(r).toMatchObject({ ok: false, code: 'INVALID_TOKEN', reason: 'malformed' });
      expect(!r.ok && r.message).toMatch(/^Bearer token rejected: malformed \(a JWT is three base64url parts.*mint-token/);
    }
    expect(lookups).toHaveLength(0);
  });

  test('X-App-Id without a key → UNAUTHENTICATED', async () => {
    const { auth } = setup();
    expect(await auth.authenticate({ 'x-app-id': APP }, undefined)).toEqual({
      ok: false,
      code: 'UNAUTHENTICATED',
      message: 'An API key (X-Api-Key or Bearer) is required with X-App-Id',
    });
  });

  test('X-App-Id with only a user JWT is a user request', async () => {
    const { auth } = setup();
    expect(await auth.authenticate({ 'x-app-id': APP, authorization: `Bearer ${userJwt()}` }, undefined)).toMatchObject({ ok: true, tenant: { kind: 'user' } });
  });

  test.each([
    ['Basic', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['Token', `Token ${KEY}`],
    ['a bare key', KEY],
    ['Bearer without a token', 'Bearer'],
  ])('Authorization with %s → UNAUTHENTICATED', async (_name, value) => {
    const { auth, lookups } = setup();
    expect(await auth.authenticate({ authorization: value, 'x-app-id': APP }, undefined)).toEqual({
      ok: false,
      code: 'UNAUTHENTICATED',
      message: 'Authorization must use the Bearer scheme',
    });
    expect(lookups).toHaveLength(0);
  });

  test('key failures carry the verifier’s code: unknown, wrong IP, rate limited', async () => {
    const { auth } = setup();
    expect(await auth.authenticate({ 'x-api-key': 'sk_live_sh_unknownUnknown1234', 'x-app-id': APP }, '10.0.0.1')).toMatchObject({ ok: false, code: 'KEY_NOT_FOUND' });
    expect(await auth.authenticate({ 'x-api-key': KEY, 'x-app-id': APP }, '192.0.2.1')).toMatchObject({ ok: false, code: 'IP_NOT_ALLOWED' });
    expect(await auth.authenticate({ 'x-api-key': KEY, 'x-app-id': 'app_other' }, '10.0.0.1')).toMatchObject({ ok: false, code: 'KEY_NOT_FOUND' });
    // rate limit of 2 per minute (this may straddle a minute boundary: then a third call is needed)
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await auth.authenticate({ 'x-api-key': KEY, 'x-app-id': APP }, '10.0.0.1'));
    const limited = results.find((r) => !r.ok);
    expect(limited).toMatchObject({ ok: false, code: 'RATE_LIMITED', rateLimit: { allowed: false, limit: 2, remaining: 0 } });
  });

  test('the Origin header reaches the verifier', async () => {
    const records = new Map([[hashKey(PK), { ...publishable, allowedOrigins: ['https://shop.example'] }]]);
    const keys = new ApiKeyVerifier(async (_a, h) => records.get(h) ?? null, new MemoryRateLimiter(), new MemoryUsageCounter(), { ttlMs: 1000 });
    const auth = createAuthenticator({ jwtSecret: JWT_SECRET, keys });
    expect(await auth.authenticate({ 'x-api-key': PK, 'x-app-id': APP, origin: 'https://evil.example' }, undefined)).toMatchObject({ ok: false, code: 'ORIGIN_NOT_ALLOWED' });
    expect(await auth.authenticate({ 'x-api-key': PK, 'x-app-id': APP, origin: 'https://shop.example' }, undefined)).toMatchObject({ ok: true });
  });

  test('blank headers count as absent', async () => {
    const { auth } = setup();
    const r = await auth.authenticate({ 'x-api-key': '   ', 'x-app-id': '', 'x-platform': ' ', authorization: '' }, undefined);
    expect(r).toMatchObject({ ok: true, tenant: { kind: 'anonymous', scopes: [] } });
    if (r.ok) expect(r.tenant).not.toHaveProperty('platformCode');
  });
});

// issue 12 item 6: JWT traffic is limited per user
describe('per-user limit of JWT traffic', () => {
  test('JWT-only requests count per user; another user has its own budget; key traffic is not counted here', async () => {
    const keys = new ApiKeyVerifier(async () => publishable, new MemoryRateLimiter(), new MemoryUsageCounter(), { ttlMs: 30_000 });
    const auth = createAuthenticator({ jwtSecret: JWT_SECRET, keys, userLimit: { limiter: new MemoryRateLimiter(), perMinute: 2 } });
    const as = (sub: string) => ({ authorization: `Bearer ${userJwt({ sub })}` });
    expect(await auth.authenticate(as('usr_a'), undefined)).toMatchObject({ ok: true, rateLimit: { limit: 2, remaining: 1 } });
    expect((await auth.authenticate(as('usr_a'), undefined)).ok).toBe(true);
    expect(await auth.authenticate(as('usr_a'), undefined)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    // a fresh token of the same user shares the budget
    expect(await auth.authenticate({ authorization: `Bearer ${userJwt({ sub: 'usr_a', iat: nowSec() })}` }, undefined)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect((await auth.authenticate(as('usr_b'), undefined)).ok).toBe(true);
    for (let i = 0; i < 3; i++) expect((await auth.authenticate({ ...as('usr_a'), 'x-app-id': APP, 'x-api-key': PK }, undefined)).ok).toBe(true);
  });
});

describe('clientIp (TRUSTED_PROXIES, signed bridge address)', () => {
  const xff: Headers = { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' };
  const none = clientAddressResolver([]);
  const lb = clientAddressResolver(['10.0.0.0/8', '127.0.0.1']);
  const SECRET = 'internal-secret';

  test('without TRUSTED_PROXIES a client-sent X-Forwarded-For is ignored, loopback included', () => {
    for (const remote of ['127.0.0.1', '::1', '198.51.100.4']) expect(clientIp(remote, xff, none, SECRET)).toBe(remote);
    expect(clientIp('::ffff:198.51.100.4', xff, none, SECRET)).toBe('198.51.100.4');
  });

  test('from a trusted proxy: the rightmost hop that is not a trusted proxy', () => {
    expect(clientIp('127.0.0.1', xff, lb, SECRET)).toBe('203.0.113.7');
    // the client wrote its own X-Forwarded-For; the load balancer appended the real peer
    expect(clientIp('10.0.0.9', { 'x-forwarded-for': '1.2.3.4, 198.51.100.20' }, lb, SECRET)).toBe('198.51.100.20');
    expect(clientIp('10.0.0.9', { 'x-forwarded-for': 'garbage, 10.0.0.3' }, lb, SECRET)).toBe('10.0.0.3');
    expect(clientIp('10.0.0.9', {}, lb, SECRET)).toBe('10.0.0.9');
    expect(clientIp('198.51.100.4', xff, lb, SECRET)).toBe('198.51.100.4');
  });

  test('a signed x-client-address (the REST bridge) wins; forged or stale ones are ignored', () => {
    expect(clientIp('127.0.0.1', { 'x-client-address': signClientAddress('192.0.2.5', SECRET) }, none, SECRET)).toBe('192.0.2.5');
    expect(clientIp('127.0.0.1', { 'x-client-address': signClientAddress('192.0.2.5', 'other') }, none, SECRET)).toBe('127.0.0.1');
    expect(clientIp('127.0.0.1', { 'x-client-address': signClientAddress('192.0.2.5', SECRET, Date.now() - 120_000) }, none, SECRET)).toBe('127.0.0.1');
    expect(verifyClientAddress('a.b', SECRET)).toBeUndefined();
  });

  test('no peer → undefined', () => {
    expect(clientIp(undefined, {}, none, SECRET)).toBeUndefined();
  });
});
