// Domain events travel on a PubSub: in-process by default, Redis pub/sub when REDIS_URL is set,
// so an event published by one subgraph process reaches subscribers on every gateway process.
// Topics are per tenant (see lib/events.ts), so isolation comes from the topic name itself; on Redis
// every channel carries REDIS_KEY_PREFIX, so deployments sharing one Redis never hear each other.
// The Subscription topics are also streamed (lib/event-stream.ts): each event gets an id in its
// tenant's stream (XADD, or the in-process ring) and travels as `{ id, payload }`, so a subscriber
// can resume after the last id it saw (`subscribeFrom`); `subscribe` still yields the bare payload.
import { createPubSub } from '@graphql-yoga/subscription';
import type { RedisClientType } from 'redis';
import type { Logger } from './logger.js';
import { closeRedis, connectClient, logErrorsOnce, newRedisClient, redisScript, runScript, type RedisSettings } from './redis.js';
import { RedisHealth } from './redis-fallback.js';
import { EventRing, nothingAfter, resumableEvents, type LiveListen, type StreamEvent, type StreamHistory, type StreamItem, type StreamSettings } from './event-stream.js';
import { contractStreams } from './event-stream.js';

export interface PubSub {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe(topic: string): AsyncIterable<unknown> & AsyncIterator<unknown>;
  /**
   * A streamed topic's events with their ids, after `after` when given (the missed events replayed
   * first, or a gone signal when `after` left the retention window), then live; each event once.
   */
  subscribeFrom(topic: string, after?: string): AsyncIterableIterator<StreamItem>;
  close(): Promise<void>;
  readonly kind: 'memory' | 'redis';
}

type YogaPubSub = ReturnType<typeof createPubSub<Record<string, [unknown]>>>;

/** What the stream side of a PubSub needs from its transport. */
interface StreamTransport {
  listen: LiveListen;
  history(stream: string): StreamHistory;
}

function wrap(inner: YogaPubSub, kind: PubSub['kind'], close: () => Promise<void>, streams: StreamSettings, transport: StreamTransport): PubSub {
  return {
    kind,
    async publish(topic, payload) {
      inner.publish(topic, payload);
    },
    subscribe(topic) {
      const it = (inner.subscribe(topic) as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      return (streams.streamOf(topic) ? payloadsOf(it) : it) as AsyncIterable<unknown> & AsyncIterator<unknown>;
    },
    subscribeFrom(topic, after) {
      const stream = streams.streamOf(topic);
      if (!stream) throw new Error(`topic ${topic} is not streamed`);
      return resumableEvents(topic, transport.listen, transport.history(stream), after);
    },
    close,
  };
}

/** The payloads of a streamed topic's envelopes. */
function payloadsOf(it: AsyncIterator<unknown>): AsyncIterableIterator<unknown> {
  return {
    next: async () => {
      const r = await it.next();
      return r.done ? r : { done: false, value: (r.value as StreamEvent).payload };
    },
    return: () => (it.return ? it.return() : Promise.resolve({ done: true as const, value: undefined })),
    throw: (e: unknown) => (it.throw ? it.throw(e) : Promise.reject(e)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** In process; `streams`: which topics are streamed and their retention (default: the contract's Subscription topics). */
export function createMemoryPubSub(streams: StreamSettings = contractStreams()): PubSub {
  const target = new EventTarget();
  const inner = createPubSub<Record<string, [unknown]>>({ eventTarget: target });
  const ring = new EventRing(streams);
  const wrapped = wrap(inner, 'memory', async () => undefined, streams, {
    listen: (topic, deliver) => {
      const handler = (e: Event) => deliver((e as CustomEvent).detail as StreamEvent);
      target.addEventListener(topic, handler);
      return { ready: Promise.resolve(), off: () => target.removeEventListener(topic, handler) };
    },
    history: (stream) => ring.history(stream),
  });
  return {
    ...wrapped,
    async publish(topic, payload) {
      const stream = streams.streamOf(topic);
      inner.publish(topic, stream ? { id: ring.append(stream, topic, payload), payload } : payload);
    },
  };
}

/**
 * An EventTarget over node-redis: dispatchEvent publishes, addEventListener subscribes once per
 * topic on a duplicate client (a client in subscriber mode cannot publish).
 */
class RedisEventTarget implements EventTarget {
  private listeners = new Map<string, Set<EventListenerOrEventListenerObject>>();
  /** the Redis message callback per topic, so unsubscribe removes only ours (a quick re-subscribe must survive) */
  private handlers = new Map<string, (message: string) => void>();
  /** each topic's SUBSCRIBE, resolved once Redis confirmed it (no later publish is missed) */
  readonly subscribed = new Map<string, Promise<void>>();
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
      const done = this.sub.subscribe(this.prefix + type, handler).catch((e) => this.log.error('redis subscribe failed', { err: e }));
      this.subscribed.set(type, done);
    }
    set.add(cb);
  }

  removeEventListener(type: string, cb: EventListenerOrEventListenerObject | null): void {
    const set = this.listeners.get(type);
    if (!set || !cb) return;
    set.delete(cb);
    if (set.size === 0) {
      this.listeners.delete(type);
      this.subscribed.delete(type);
      const handler = this.handlers.get(type);
      this.handlers.delete(type);
      if (handler) this.sub.unsubscribe(this.prefix + type, handler).catch(() => undefined);
    }
  }
}

/**
 * Appends to the tenant stream, trims it to the window, and publishes the envelope in one atomic
 * step, so every subscriber hears a stream's events in id order (two publishers cannot interleave
 * between the append and the publish). The emptied stream is kept a day for its last id (a resume
 * point after which nothing happened is not "gone").
 * KEYS[1] stream; ARGV: max events, min id (now - max age), topic, payload JSON, channel, expiry ms.
 */
const STREAM_PUBLISH = redisScript(`
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 't', ARGV[3], 'p', ARGV[4])
redis.call('XTRIM', KEYS[1], 'MINID', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PUBLISH', ARGV[5], '{"id":"' .. id .. '","payload":' .. ARGV[4] .. '}')
return id`);

const STREAM_KEY_TTL_MS = 24 * 3600_000;

/** The retained events of a Redis stream after `after` (XRANGE from `after` inclusive: found means nothing was trimmed between). */
function redisHistory(redis: RedisClientType, key: string, retainEvents: number): StreamHistory {
  return async (after) => {
    const entries = (await redis.xRange(key, after, '+', { COUNT: retainEvents + 1 })) ?? [];
    if (entries[0]?.id === after)
      return { gone: false, events: entries.slice(1).map((e) => ({ id: e.id, topic: String(e.message.t), payload: JSON.parse(String(e.message.p)) })) };
    if (entries.length) return { gone: true, events: [] };
    const newest = await redis.xRevRange(key, '+', '-', { COUNT: 1 }).catch(() => []);
    const info = newest?.[0]?.id ?? (await lastGeneratedId(redis, key));
    return { gone: !nothingAfter(after, info), events: [] };
  };
}

/** An emptied stream's last id (XINFO STREAM), undefined when the key is gone. */
async function lastGeneratedId(redis: RedisClientType, key: string): Promise<string | undefined> {
  try {
    const info = (await redis.sendCommand(['XINFO', 'STREAM', key])) as unknown[];
    const i = info.indexOf('last-generated-id');
    return i >= 0 ? String(info[i + 1]) : undefined;
  } catch {
    return undefined;
  }
}

export async function createRedisPubSub(cfg: RedisSettings, log: Logger, prefix = '', streams: StreamSettings = contractStreams()): Promise<PubSub> {
  const pub = newRedisClient(cfg);
  logErrorsOnce(pub, log);
  await connectClient(pub, cfg);
  const sub = newRedisClient(cfg);
  logErrorsOnce(sub, log);
  await connectClient(sub, cfg);
  const target = new RedisEventTarget(pub, sub, log, prefix);
  const inner = createPubSub<Record<string, [unknown]>>({ eventTarget: target });
  const wrapped = wrap(
    inner,
    'redis',
    async () => {
      await Promise.all([closeRedis(sub), closeRedis(pub)]);
    },
    streams,
    {
      listen: (topic, deliver) => {
        const handler = (e: Event) => deliver((e as CustomEvent).detail as StreamEvent);
        target.addEventListener(topic, handler);
        return { ready: target.subscribed.get(topic) ?? Promise.resolve(), off: () => target.removeEventListener(topic, handler) };
      },
      history: (stream) => redisHistory(pub, `${prefix}stream:${stream}`, streams.retainEvents),
    },
  );
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
      const stream = streams.streamOf(topic);
      const json = JSON.stringify(payload ?? null);
      if (!stream) return void (await health.attempt(() => health.bounded.publish(prefix + topic, json), 2000));
      const args = [String(streams.retainEvents), String(Math.max(0, Date.now() - streams.retainMs)), topic, json, prefix + topic, String(STREAM_KEY_TTL_MS)];
      const opts = { keys: [`${prefix}stream:${stream}`], arguments: args };
      // by its SHA-1 (the script's text is not sent per event; lib/redis.ts runScript)
      await health.attempt(() => runScript(health.bounded, STREAM_PUBLISH, opts), 2000);
    },
  };
}
