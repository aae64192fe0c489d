// Identity providers' tokens (gateway/auth/jwks.ts): RS256 and ES256 verified against a JWKS server
// this test runs, with iss/aud, bounded clock skew, key rotation (a new kid is fetched), a rate bound
// on fetches for unknown kids, and a revoked key (removed from the JWKS) refused once the cache ages.
import { createServer, type Server } from 'node:http';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { JwksVerifier } from '../../gateway/auth/jwks.js';
import { createAuthenticator } from '../../gateway/auth/authenticate.js';
import { createLogger } from '../../lib/logger.js';
import { ConfigError, loadConfig } from '../../lib/config.js';

const PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 920;
const URL_A = `http://127.0.0.1:${PORT}/a/jwks.json`;
const URL_B = `http://127.0.0.1:${PORT}/b/jwks.json`;
const ISS_A = 'https://idp-a.example.com/realms/staff';
const ISS_B = 'https://idp-b.example.com/';
const AUD = 'platform-api';
const log = createLogger({}, 'silent');

interface Key {
  kid: string;
  alg: 'RS256' | 'ES256';
  priv: KeyObject;
  jwk: Record<string, unknown>;
}
function makeKey(kid: string, alg: Key['alg']): Key {
  const { privateKey, publicKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, alg, priv: privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } };
}
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function token(key: Key, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header })}.${b64({ sub: 'staff-1', scope: 'platform:read', iss: ISS_A, aud: AUD, iat: now, exp: now + 300, ...claims })}`;
  const sig = sign('sha256', Buffer.from(input), key.alg === 'ES256' ? { key: key.priv, dsaEncoding: 'ieee-p1363' } : key.priv);
  return `${input}.${sig.toString('base64url')}`;
}

const rsa1 = makeKey('rsa-2026-1', 'RS256');
const ec1 = makeKey('ec-2026-1', 'ES256');
const rsa2 = makeKey('rsa-2026-2', 'RS256');
const served: Record<string, Key[]> = { '/a/jwks.json': [rsa1, ec1], '/b/jwks.json': [makeKey('b-1', 'ES256')] };
const hits: Record<string, number> = {};
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits[req.url!] = (hits[req.url!] ?? 0) + 1;
    const keys = served[req.url!];
    if (!keys) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((r) => server.listen(PORT, '127.0.0.1', () => r()));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const verifier = (o: Partial<ConstructorParameters<typeof JwksVerifier>[0]> = {}) =>
  new JwksVerifier({ issuers: [{ issuer: ISS_A, url: URL_A }, { issuer: ISS_B, url: URL_B }], audience: AUD, maxLifetimeSec: 3600, skewSec: 60, cacheMs: 60_000, minRefreshMs: 0, log, ...o });

test('RS256 and ES256 tokens of a configured issuer verify; claims and scopes come through', async () => {
  const v = verifier();
  expect(await v.verify(token(rsa1, {}))).toMatchObject({ ok: true, claims: { sub: 'staff-1' }, scopes: ['platform:read'] });
  expect(await v.verify(token(ec1, { scope: 'platform:admin platform:read' }))).toMatchObject({ ok: true, scopes: ['platform:admin', 'platform:read'] });
  // one fetch for both: the keys are cached
  expect(v.fetchCounts()[ISS_A]).toBe(1);
});

test('iss, aud, signature, algorithm and clock skew are checked', async () => {
  const v = verifier();
  const now = Math.floor(Date.now() / 1000);
  expect(await v.verify(token(rsa1, { iss: 'https://evil.example.com/' }))).toEqual({ ok: false, reason: 'bad_issuer' });
  // a key of issuer A does not sign for issuer B
  expect(await v.verify(token(rsa1, { iss: ISS_B }))).toEqual({ ok: false, reason: 'unknown_kid' });
  expect(await v.verify(token(rsa1, { aud: 'other-api' }))).toEqual({ ok: false, reason: 'bad_audience' });
  const t = token(rsa1, {});
  expect(await v.verify(`${t.slice(0, t.lastIndexOf('.'))}.${Buffer.alloc(256, 1).toString('base64url')}`)).toEqual({ ok: false, reason: 'bad_signature' });
  // an EC key named by an RS256 header (algorithm confusion) is refused
  const confused = token(ec1, {}, { alg: 'RS256' });
  expect((await v.verify(confused)).ok).toBe(false);
  expect(await v.verify(token(rsa1, {}, { alg: 'none' }))).toEqual({ ok: false, reason: 'unsupported_alg' });
  // skew: expired 30 s ago is within 60 s of tolerance, 90 s ago is not; nbf likewise
  expect((await v.verify(token(rsa1, { iat: now - 600, exp: now - 30 }))).ok).toBe(true);
  expect(await v.verify(token(rsa1, { iat: now - 600, exp: now - 90 }))).toEqual({ ok: false, reason: 'expired' });
  expect((await v.verify(token(rsa1, { nbf: now + 30 }))).ok).toBe(true);
  expect(await v.verify(token(rsa1, { nbf: now + 120 }))).toEqual({ ok: false, reason: 'not_yet_valid' });
  expect(await v.verify(token(rsa1, { exp: now + 7200 }))).toEqual({ ok: false, reason: 'lifetime_too_long' });
});

test('rotation: a token signed with a key published after the cache was filled verifies (one fetch)', async () => {
  const v = verifier({ minRefreshMs: 200 });
  expect((await v.verify(token(rsa1, {}))).ok).toBe(true);
  served['/a/jwks.json'] = [rsa1, ec1, rsa2];
  await new Promise((r) => setTimeout(r, 250));
  expect((await v.verify(token(rsa2, {}))).ok).toBe(true);
  expect(v.fetchCounts()[ISS_A]).toBe(2);
});

test('unknown kids refetch at most once per JWT_JWKS_MIN_REFRESH_MS', async () => {
  const v = verifier({ minRefreshMs: 60_000 });
  expect((await v.verify(token(rsa1, {}))).ok).toBe(true);
  const before = hits['/a/jwks.json'] ?? 0;
  const forged = Array.from({ length: 50 }, (_, i) => ({ ...rsa1, kid: `made-up-${i}` }));
  const results = await Promise.all(forged.map((k) => v.verify(token(k, {}))));
  expect(results.every((r) => !r.ok && r.reason === 'unknown_kid')).toBe(true);
  // the first token (rsa1) filled the cache; 50 made-up kids within the bound: not one more fetch
  expect((hits['/a/jwks.json'] ?? 0) - before).toBe(0);
});

test('a revoked key (removed from the JWKS) is refused once the cached set is older than JWT_JWKS_CACHE_MS', async () => {
  served['/a/jwks.json'] = [rsa1, ec1, rsa2];
  const v = verifier({ cacheMs: 300, minRefreshMs: 100 });
  expect((await v.verify(token(rsa1, {}))).ok).toBe(true);
  served['/a/jwks.json'] = [ec1, rsa2];
  expect((await v.verify(token(rsa1, {}))).ok).toBe(true); // still cached
  await new Promise((r) => setTimeout(r, 350));
  expect(await v.verify(token(rsa1, {}))).toEqual({ ok: false, reason: 'unknown_kid' });
  expect((await v.verify(token(rsa2, {}))).ok).toBe(true);
});

test('the JWKS server down: the keys already held keep verifying; none held: refused, not an error', async () => {
  const v = verifier({ cacheMs: 100, minRefreshMs: 0 });
  expect((await v.verify(token(ec1, {}))).ok).toBe(true);
  const saved = served['/a/jwks.json'];
  delete served['/a/jwks.json'];
  await new Promise((r) => setTimeout(r, 150));
  expect((await v.verify(token(ec1, {}))).ok).toBe(true);
  served['/a/jwks.json'] = saved;
  const none = new JwksVerifier({ issuers: [{ issuer: ISS_A, url: `http://127.0.0.1:${PORT}/missing.json` }], audience: AUD, maxLifetimeSec: 3600, skewSec: 60, cacheMs: 1000, minRefreshMs: 0, log });
  expect(await none.verify(token(ec1, {}))).toEqual({ ok: false, reason: 'unknown_kid' });
});

test('the authenticator takes RS256/ES256 through the JWKS and HS256 through the secret; an HS256 token signed with a public key is refused', async () => {
  const jwks = verifier();
  const auth = createAuthenticator({ jwtSecret: 'hs-secret-for-this-test', keys: {} as never, jwks });
  const ok = await auth.authenticate({ authorization: `Bearer ${token(ec1, {})}` }, undefined);
  expect(ok).toMatchObject({ ok: true, tenant: { kind: 'user', userId: 'staff-1', scopes: ['platform:read'] } });
  const bad = await auth.authenticate({ authorization: `Bearer ${token(ec1, { iss: 'https://evil.example.com/' })}` }, undefined);
  expect(bad).toMatchObject({ ok: false, code: 'INVALID_TOKEN', reason: 'bad_issuer' });
  // alg confusion: HS256 "signed" with the RSA public key as the secret
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'HS256', kid: rsa1.kid })}.${b64({ sub: 'x', iss: ISS_A, aud: AUD, exp: now + 60 })}`;
  const forged = `${input}.${createHmac('sha256', JSON.stringify(rsa1.jwk)).update(input).digest('base64url')}`;
  expect(await auth.authenticate({ authorization: `Bearer ${forged}` }, undefined)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
});

test('configuration: one issuer per JWKS URL, in order; skew capped at 300 s', () => {
  const c = loadConfig({ JWT_JWKS_URLS: `${URL_A},${URL_B}`, JWT_ISSUERS: `${ISS_A},${ISS_B}`, JWT_CLOCK_SKEW_SEC: '900' });
  expect(c.jwt.jwks).toEqual([{ issuer: ISS_A, url: URL_A }, { issuer: ISS_B, url: URL_B }]);
  expect(c.jwt.clockSkewSec).toBe(300);
  expect(loadConfig({}).jwt.jwks).toEqual([]);
  expect(() => loadConfig({ JWT_JWKS_URLS: URL_A })).toThrow(ConfigError);
  expect(() => loadConfig({ JWT_JWKS_URLS: 'not a url', JWT_ISSUERS: ISS_A })).toThrow(/^JWT_JWKS_URLS: /);
});
