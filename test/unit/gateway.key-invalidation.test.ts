// gateway/auth/key-invalidation.ts and ApiKeyVerifier.invalidate: which cached records an
// invalidation drops, that it reaches the verifier through the pub/sub, and that a lookup racing
// an invalidation does not put its (possibly stale) answer back into the cache.
import { ApiKeyVerifier, hashKey, type KeyRecord } from '../../gateway/auth/api-key.js';
import { listenForKeyInvalidations, matchesInvalidation } from '../../gateway/auth/key-invalidation.js';
import { KEYS_INVALIDATED_TOPIC, type KeysInvalidatedPayload } from '../../lib/events.js';
import { createLogger } from '../../lib/logger.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import { MemoryRateLimiter, MemoryUsageCounter } from '../../lib/rate-limit.js';

const APP = 'app_8Fq2LmN0pQr4StUv6WxY';
const KEY = 'sk_live_sh_4f9Qz7LmP2xWc8RbT1yN';

function record(over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: 'key_1', appId: APP, accountId: 'acct_1', platformId: 'plat_1', platformCode: 'acme', environment: 'live', keyType: 'secret',
    scopes: [], rateLimitPerMinute: null, allowedIps: [], allowedOrigins: [], expiresAt: null, revoked: false, appStatus: 'active', ...over,
  };
}

const p = (over: Partial<KeysInvalidatedPayload>): KeysInvalidatedPayload => ({ reason: 'test', occurredAt: new Date().toISOString(), ...over });

test('a record matches by key, app, account or platform id; negative entries never match', () => {
  const r = record();
  expect(matchesInvalidation(p({ keyIds: ['key_1'] }), r)).toBe(true);
  expect(matchesInvalidation(p({ appIds: [APP] }), r)).toBe(true);
  expect(matchesInvalidation(p({ accountIds: ['acct_1'] }), r)).toBe(true);
  expect(matchesInvalidation(p({ platformIds: ['plat_1'] }), r)).toBe(true);
  expect(matchesInvalidation(p({ keyIds: ['key_2'], appIds: ['app_other'] }), r)).toBe(false);
  expect(matchesInvalidation(p({ keyIds: ['key_1'] }), null)).toBe(false);
});

function verifierOver(current: { record: KeyRecord | null }, gate?: { wait?: Promise<void> }) {
  let lookups = 0;
  const v = new ApiKeyVerifier(
    async (_appId, hash) => {
      lookups++;
      const row = current.record; // the row as the database had it when the query ran
      if (gate?.wait) await gate.wait;
      return hash === hashKey(KEY) ? row : null;
    },
    new MemoryRateLimiter(),
    new MemoryUsageCounter(),
    { ttlMs: 600_000 },
  );
  return { v, lookups: () => lookups };
}

test('an invalidation published on the pub/sub drops the cached record: the next request sees the new state', async () => {
  const current = { record: record() as KeyRecord | null };
  const { v, lookups } = verifierOver(current);
  const pubsub = createMemoryPubSub();
  const listener = listenForKeyInvalidations(pubsub, v, createLogger({}, 'silent'));
  await new Promise((r) => setTimeout(r, 10));
  expect((await v.verify({ appId: APP, key: KEY })).valid).toBe(true);
  current.record = record({ revoked: true });
  expect((await v.verify({ appId: APP, key: KEY })).valid).toBe(true); // still cached (10-minute TTL)
  expect(lookups()).toBe(1);

  await pubsub.publish(KEYS_INVALIDATED_TOPIC, p({ appIds: ['app_other'] }));
  await new Promise((r) => setTimeout(r, 10));
  expect((await v.verify({ appId: APP, key: KEY })).valid).toBe(true); // not ours

  await pubsub.publish(KEYS_INVALIDATED_TOPIC, p({ keyIds: ['key_1'] }));
  await new Promise((r) => setTimeout(r, 10));
  expect(await v.verify({ appId: APP, key: KEY })).toMatchObject({ valid: false, code: 'KEY_REVOKED' });
  expect(lookups()).toBe(2);
  await listener.stop();
  await pubsub.close();
});

test('a lookup that was in flight when an invalidation arrived answers its request but is not cached', async () => {
  const current = { record: record() as KeyRecord | null };
  let release!: () => void;
  const gate: { wait?: Promise<void> } = { wait: new Promise<void>((r) => (release = r)) };
  const { v, lookups } = verifierOver(current, gate);
  const inFlight = v.verify({ appId: APP, key: KEY });
  await new Promise((r) => setTimeout(r, 5));
  v.invalidate((r) => matchesInvalidation(p({ keyIds: ['key_1'] }), r)); // arrives mid-lookup
  current.record = record({ revoked: true });
  release();
  expect((await inFlight).valid).toBe(true); // it read the row before the change
  gate.wait = undefined;
  expect(await v.verify({ appId: APP, key: KEY })).toMatchObject({ valid: false, code: 'KEY_REVOKED' });
  expect(lookups()).toBe(2);
});

test('a platform that is not active refuses its keys', async () => {
  const { v } = verifierOver({ record: record({ platformActive: false }) });
  expect(await v.verify({ appId: APP, key: KEY })).toMatchObject({ valid: false, code: 'FORBIDDEN', message: 'Platform is not active' });
});
