// The gateway side of `platform.keys.invalidated`: the platform subgraph publishes it after a commit
// that changes what a credential may do (regenerate, rotate, revoke; app, account, plan, platform
// changes; a platform's operators); every gateway drops the matching cached key and operator records,
// so the change applies at once on every replica (through Redis when REDIS_URL is set) instead of
// after API_KEY_CACHE_TTL_MS, and then re-checks its open WebSockets the change concerns.
import { KEYS_INVALIDATED_TOPIC, type KeysInvalidatedPayload } from '../../lib/events.js';
import type { Logger } from '../../lib/logger.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { ApiKeyVerifier, KeyRecord } from './api-key.js';
import type { OperatorVerifier } from './operators.js';

/** Does a cached record fall under the invalidation? Negative (null) entries are kept: no value of theirs changed. */
export function matchesInvalidation(p: KeysInvalidatedPayload, r: KeyRecord | null): boolean {
  if (!r) return false;
  return !!(p.keyIds?.includes(r.keyId) || p.appIds?.includes(r.appId) || p.accountIds?.includes(r.accountId) || p.platformIds?.includes(r.platformId));
}

export interface InvalidationTargets {
  keys: ApiKeyVerifier;
  operators?: OperatorVerifier;
  /** open WebSockets to re-check (gateway/subscriptions/live-connections.ts) */
  connections?: { onInvalidation(p: KeysInvalidatedPayload): Promise<void> };
}

/** Apply one invalidation: caches first, so the re-checks of open sockets read fresh records. */
export async function applyInvalidation(p: KeysInvalidatedPayload, targets: InvalidationTargets): Promise<void> {
  targets.keys.invalidate((r) => matchesInvalidation(p, r));
  const platforms = [...(p.operatorPlatformIds ?? []), ...(p.platformIds ?? [])];
  if (platforms.length) targets.operators?.invalidate(platforms);
  await targets.connections?.onInvalidation(p);
}

/** Listen until the returned stop() is called. */
export function listenForKeyInvalidations(pubsub: PubSub, targets: InvalidationTargets | ApiKeyVerifier, log: Logger): { stop(): Promise<void> } {
  const t: InvalidationTargets = 'keys' in targets ? targets : { keys: targets };
  const events = pubsub.subscribe(KEYS_INVALIDATED_TOPIC);
  const done = (async () => {
    for await (const payload of events) {
      const p = payload as KeysInvalidatedPayload;
      // not awaited: a slow re-check must not hold back the next invalidation
      applyInvalidation(p, t).catch((e) => log.error('key invalidation failed', { err: e, reason: p.reason }));
      log.debug('api key cache invalidated', { reason: p.reason });
    }
  })().catch((e) => log.error('key invalidation listener stopped', { err: e }));
  return {
    async stop() {
      await events.return?.();
      await done;
    },
  };
}
