// The gateway side of `platform.keys.invalidated`: the platform subgraph publishes it after a commit
// that changes what a key may do (regenerate, rotate, revoke; app, account, platform changes); every
// gateway drops the matching cached key records, so the change applies at once on every replica
// (through Redis when REDIS_URL is set) instead of after API_KEY_CACHE_TTL_MS.
import { KEYS_INVALIDATED_TOPIC, type KeysInvalidatedPayload } from '../../subgraphs/platform/event-types.js';
import type { Logger } from '../../lib/logger.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { ApiKeyVerifier, KeyRecord } from './api-key.js';

/** Does a cached record fall under the invalidation? Negative (null) entries are kept: no value of theirs changed. */
export function matchesInvalidation(p: KeysInvalidatedPayload, r: KeyRecord | null): boolean {
  if (!r) return false;
  return !!(p.keyIds?.includes(r.keyId) || p.appIds?.includes(r.appId) || p.accountIds?.includes(r.accountId) || p.platformIds?.includes(r.platformId));
}

/** Listen until the returned stop() is called. */
export function listenForKeyInvalidations(pubsub: PubSub, keys: ApiKeyVerifier, log: Logger): { stop(): Promise<void> } {
  const events = pubsub.subscribe(KEYS_INVALIDATED_TOPIC);
  const done = (async () => {
    for await (const payload of events) {
      const p = payload as KeysInvalidatedPayload;
      keys.invalidate((r) => matchesInvalidation(p, r));
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
