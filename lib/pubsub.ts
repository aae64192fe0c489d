// Domain events travel on a PubSub: in-process by default, Redis pub/sub when REDIS_URL is set,
// so an event published by one subgraph process reaches subscribers on every gateway process.
// Topics are per tenant (see lib/events.ts), so isolation comes from the topic name itself; on Redis
// every channel carries REDIS_KEY_PREFIX, so deployments sharing one Redis never hear each other.
import { createPubSub } from '@graphql-yoga/subscription';
import type { RedisClientType } from 'redis';
import type { Logger } from './logger.js';
import { closeRedis, connectClient, logErrorsOnce, newRedisClient, type RedisSettings } from './redis.js';
import { RedisHealth } from './redis-fallback.js';

export interface PubSub {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe(topic: string): AsyncIterable<unknown> & AsyncIterator<unknown>;
  close(): Promise<void>;
  readonly kind: 'memory' | 'redis';
}

type YogaPubSub = ReturnType<typeof createPubSub<Record<string, [unknown]>>>;

function wrap(inner: YogaPubSub, kind: PubSub['kind'], close: () => Promise<void>): PubSub {
  return {
    kind,
    async publish(topic, payload) {
      inner.publish(topic, payload);
    },
    subscribe(topic) {
      const it = inner.subscribe(topic) as AsyncIterable<unknown>;
      return it[Symbol.asyncIterator]() as AsyncIterable<unknown> & AsyncIterator<unknown>;
    },
    close,
  };
}

export function createMemoryPubSub(): PubSub {
  return wrap(createPubSub<Record<string, [unknown]>>(), 'memory', async () => undefined);
}

/**
 * An EventTarget over node-redis: dispatchEvent publishes, addEventListener subscribes once per
 * topic on a duplicate client (a client in subscriber mode cannot publish).
 */
class RedisEventTarget implements EventTarget {
  private listeners = new Map<string, Set<EventListenerOrEventListenerObject>>();
  /** the Redis message callback per topic, so unsubscribe removes only ours (a quick re-subscribe must survive) */
  private handlers = new Map<string, (message: string) => void>();
  constructor(private pub: RedisClientType, private sub: RedisClientType, private log: Logger, private prefix = '') {}

  dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.pub.publish(this.prefix + event.type, JSON.stringify(detail ?? null)).catch((e) => this.log.error('redis publish failed', { err: e }));
    return true;
  }

  addEventListener(type: string, cb: EventListenerOrEventListenerObject | null): void {
    if (!cb) return;
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
      const current = set;
      const handler = (message: string) => {
        let detail: unknown;
        try {
          detail = JSON.parse(message);
        } catch {
          return;
        }
        const evt = new CustomEvent(type, { detail });
        for (const l of current) {
          if (typeof l === 'function') l(evt);
          else l.handleEvent(evt);
        }
      };
      this.handlers.set(type, handler);
      this.sub.subscribe(this.prefix + type, handler).catch((e) => this.log.error('redis subscribe failed', { err: e }));
    }
    set.add(cb);
  }

  removeEventListener(type: string, cb: EventListenerOrEventListenerObject | null): void {
    const set = this.listeners.get(type);
    if (!set || !cb) return;
    set.delete(cb);
    if (set.size === 0) {
      this.listeners.delete(type);
      const handler = this.handlers.get(type);
      this.handlers.delete(type);
      if (handler) this.sub.unsubscribe(this.prefix + type, handler).catch(() => undefined);
    }
  }
}

export async function createRedisPubSub(cfg: RedisSettings, log: Logger, prefix = ''): Promise<PubSub> {
  const pub = newRedisClient(cfg);
  logErrorsOnce(pub, log);
  await connectClient(pub, cfg);
  const sub = newRedisClient(cfg);
  logErrorsOnce(sub, log);
  await connectClient(sub, cfg);
  const inner = createPubSub<Record<string, [unknown]>>({ eventTarget: new RedisEventTarget(pub, sub, log, prefix) });
  const wrapped = wrap(inner, 'redis', async () => {
    await Promise.all([closeRedis(sub), closeRedis(pub)]);
  });
  // Publish straight to Redis and await the reply (the event target's dispatchEvent cannot): when it
  // resolves, Redis has handed the message to every subscriber connection, so a caller that answers
  // its client afterwards (e.g. after a key invalidation) cannot outrun its own event.
  // While Redis is unreachable a publish is dropped at once (logged once per outage, lib/redis-fallback.ts):
  // no caller waits on a dead connection; subscribers get events again once it reconnects.
  const health = new RedisHealth(pub, log, 'published events (dropped)');
  return {
    ...wrapped,
    async publish(topic, payload) {
      // as before, a failed publish is logged, not thrown: callers publish after their commit
      await health.attempt(() => pub.publish(prefix + topic, JSON.stringify(payload ?? null)), 2000);
    },
  };
}
