// Events the platform subgraph publishes, always after the commit they describe.
import { KEYS_INVALIDATED_TOPIC, type KeysInvalidatedPayload } from '../../lib/events.js';
import type { PlatformContext } from './context.js';

type Targets = Omit<KeysInvalidatedPayload, 'reason' | 'occurredAt'>;

/**
 * Tell every gateway to drop cached key records matching `targets`. A failed publish is logged, not
 * thrown: the change is committed, and the gateways' cache TTL (API_KEY_CACHE_TTL_MS) still bounds it.
 */
export async function publishKeysInvalidated(ctx: PlatformContext, targets: Targets, reason: string): Promise<void> {
  const payload: KeysInvalidatedPayload = { reason, occurredAt: new Date().toISOString(), ...targets };
  try {
    await ctx.pubsub.publish(KEYS_INVALIDATED_TOPIC, payload);
  } catch (e) {
    ctx.log.warn('keys.invalidated publish failed', { err: e, reason });
  }
}
