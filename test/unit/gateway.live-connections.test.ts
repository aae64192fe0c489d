// gateway/subscriptions/live-connections.ts and gateway/auth/operators.ts: open sockets follow their
// credentials (expiry timers, re-checks on invalidation, plan changes applied in place), and the
// operator cache. The key verifier is the real ApiKeyVerifier over a lookup whose records the test changes.
import { jest } from '@jest/globals';
import { ApiKeyVerifier, hashKey, type KeyRecord } from '../../gateway/auth/api-key.js';
import { applyInvalidation } from '../../gateway/auth/key-invalidation.js';
import { OperatorVerifier, type OperatorRecord } from '../../gateway/auth/operators.js';
import { createAuthenticator } from '../../gateway/auth/authenticate.js';
import { signJwt } from '../../gateway/auth/jwt.js';
import { CLOSE_CREDENTIALS_GONE, CLOSE_FORBIDDEN, LiveConnections } from '../../gateway/subscriptions/live-connections.js';
import { createLogger } from '../../lib/logger.js';
import { MemoryRateLimiter, MemoryUsageCounter } from '../../lib/rate-limit.js';
import type { TenantContext } from '../../lib/tenant.js';

const APP = 'app_8Fq2LmN0pQr4StUv6WxY';
const KEY = 'sk_live_sh_4f9Qz7LmP2xWc8RbT1yN';
const record: KeyRecord = {
  keyId: 'key_1', appId: APP, accountId: 'acc_1', platformId: 'plt_1', platformCode: 'acme', environment: 'live', keyType: 'secret',
  scopes: ['products:read'], rateLimitPerMinute: null, allowedIps: [], allowedOrigins: [], expiresAt: null, revoked: false, appStatus: 'active', plan: 'free',
};
const log = createLogger({}, 'silent');

function setup() {
  const records = new Map<string, KeyRecord>([[hashKey(KEY), { ...record }]]);
  const keys = new ApiKeyVerifier(async (_app, h) => records.get(h) ?? null, new MemoryRateLimiter(), new MemoryUsageCounter(), { ttlMs: 60_000 });
  const connections = new LiveConnections({ keys, log });
  const closes: { code: number; reason: string }[] = [];
  const socket = { close: (code: number, reason: string) => void closes.push({ code, reason }) };
  const tenant: TenantContext = { kind: 'key', requestId: 'r', scopes: ['products:read'], appId: APP, keyId: 'key_1', accountId: 'acc_1', platformId: 'plt_1', plan: 'free' };
  return { records, keys, connections, closes, socket, tenant };
}
const change = (r: Map<string, KeyRecord>, patch: Partial<KeyRecord>) => r.set(hashKey(KEY), { ...r.get(hashKey(KEY))!, ...patch });
const payload = (p: Record<string, unknown>) => ({ reason: 'test', occurredAt: new Date().toISOString(), ...p });

test('a revoked key closes its socket with 4401; other keys’ sockets stay', async () => {
  const s = setup();
  s.connections.add(s.socket, s.tenant, { key: { appId: APP, key: KEY } });
  await applyInvalidation(payload({ keyIds: ['key_other'] }), { keys: s.keys, connections: s.connections });
  expect(s.closes).toEqual([]);
  change(s.records, { revoked: true });
  await applyInvalidation(payload({ keyIds: ['key_1'] }), { keys: s.keys, connections: s.connections });
  expect(s.closes).toEqual([{ code: CLOSE_CREDENTIALS_GONE, reason: 'API key has been revoked' }]);
  expect(s.connections.size).toBe(0);
});

test('a regenerated key (its value unknown now) closes with 4401; a suspended app with 4403', async () => {
  const a = setup();
  a.connections.add(a.socket, a.tenant, { key: { appId: APP, key: KEY } });
  a.records.clear();
  await applyInvalidation(payload({ keyIds: ['key_1'] }), { keys: a.keys, connections: a.connections });
  expect(a.closes.map((c) => c.code)).toEqual([CLOSE_CREDENTIALS_GONE]);

  const b = setup();
  b.connections.add(b.socket, b.tenant, { key: { appId: APP, key: KEY } });
  change(b.records, { appStatus: 'suspended' });
  await applyInvalidation(payload({ appIds: [APP] }), { keys: b.keys, connections: b.connections });
  expect(b.closes.map((c) => c.code)).toEqual([CLOSE_FORBIDDEN]);
});

test('a plan change applies to the open connection’s tenant in place', async () => {
  const s = setup();
  s.connections.add(s.socket, s.tenant, { key: { appId: APP, key: KEY } });
  change(s.records, { plan: 'starter', scopes: ['products:read', 'products:write'] });
  await applyInvalidation(payload({ accountIds: ['acc_1'] }), { keys: s.keys, connections: s.connections });
  expect(s.closes).toEqual([]);
  expect(s.tenant).toMatchObject({ plan: 'starter', scopes: ['products:read', 'products:write'] });
});

test('expiry timers: the earliest of the JWT exp and the key expiry closes with 4401; closing the socket clears them', async () => {
  jest.useFakeTimers({ now: 1_000_000 });
  try {
    const s = setup();
    s.connections.add(s.socket, s.tenant, { jwtExpiresAt: 1_003_000, keyExpiresAt: 1_005_000 });
    jest.advanceTimersByTime(2_999);
    expect(s.closes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(s.closes).toEqual([{ code: CLOSE_CREDENTIALS_GONE, reason: 'The token has expired' }]);

    const t = setup();
    const forget = t.connections.add(t.socket, t.tenant, { keyExpiresAt: 1_010_000 });
    forget();
    jest.advanceTimersByTime(20_000);
    expect(t.closes).toEqual([]);
    // already expired at connection time: closed at once
    t.connections.add(t.socket, t.tenant, { keyExpiresAt: Date.now() - 1 });
    expect(t.closes.map((c) => c.code)).toEqual([CLOSE_CREDENTIALS_GONE]);
  } finally {
    jest.useRealTimers();
  }
});

test('operator records: cached, capped scopes, dropped on invalidation; "no record" is not cached', async () => {
  const found: OperatorRecord = { platformId: 'plt_1', platformCode: 'acme', scopes: ['platform:read'] };
  let current: OperatorRecord | null = null;
  let lookups = 0;
  const operators = new OperatorVerifier(async () => (lookups++, current), { ttlMs: 60_000 });
  const keys = new ApiKeyVerifier(async () => null, new MemoryRateLimiter(), new MemoryUsageCounter(), { ttlMs: 60_000 });
  const auth = createAuthenticator({ jwtSecret: 's', keys, operators });
  const now = Math.floor(Date.now() / 1000);
  const token = (claims: Record<string, unknown> = {}) => `Bearer ${signJwt({ sub: 'ops', scope: 'platform:admin platform:read other:x', exp: now + 600, ...claims }, 's')}`;

  const stranger = await auth.authenticate({ authorization: token(), 'x-platform': 'acme' }, undefined);
  expect(stranger.ok && stranger.tenant.operatorPlatformId).toBeFalsy();
  current = found;
  const op = await auth.authenticate({ authorization: token(), 'x-platform': 'acme' }, undefined);
  expect(op).toMatchObject({ ok: true, tenant: { operatorPlatformId: 'plt_1', scopes: ['platform:read', 'other:x'] } });
  expect(lookups).toBe(2);
  await auth.authenticate({ authorization: token(), 'x-platform': 'acme' }, undefined);
  expect(lookups).toBe(2); // cached
  current = null;
  operators.invalidate(['plt_1']);
  const removed = await auth.authenticate({ authorization: token(), 'x-platform': 'acme' }, undefined);
  expect(removed.ok && removed.tenant.operatorPlatformId).toBeFalsy();
  // a super-admin or a platform claim needs no record: no lookup
  await auth.authenticate({ authorization: token({ scope: 'platform:superadmin platform:admin' }), 'x-platform': 'acme' }, undefined);
  await auth.authenticate({ authorization: token({ platform: 'acme' }), 'x-platform': 'acme' }, undefined);
  expect(lookups).toBe(3);
});
