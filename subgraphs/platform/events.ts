// Events the platform subgraph publishes, always after the commit they describe.
import { publishAfterCommit } from '../../lib/events.js';
import type { Logger } from '../../lib/logger.js';
import type { PubSub } from '../../lib/pubsub.js';
import { KEYS_INVALIDATED_TOPIC, type KeysInvalidatedPayload } from './event-types.js';

type Targets = Omit<KeysInvalidatedPayload, 'reason' | 'occurredAt'>;

/**
 * Tell every gateway to drop cached key records matching `targets`. A failed publish is logged, not
 * thrown: the change is committed, and the gateways' cache TTL (API_KEY_CACHE_TTL_MS) still bounds it.
 */
export async function publishKeysInvalidated(deps: { pubsub: PubSub; log: Logger }, targets: Targets, reason: string): Promise<void> {
  const payload: KeysInvalidatedPayload = { reason, occurredAt: new Date().toISOString(), ...targets };
  await publishAfterCommit(deps, KEYS_INVALIDATED_TOPIC, payload, `keys.invalidated (${reason})`);
}
