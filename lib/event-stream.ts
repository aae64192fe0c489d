// Resumable event streams: the events of the Subscription topics (the contract's subscription
// fields) are also appended to one stream per tenant (an app and environment), each with an id, and
// kept for a retention window (a count and an age). A subscriber that lost its connection resumes
// after the last id it received: the stream replays what it missed, then the live events follow,
// each exactly once. Redis Streams back it when REDIS_URL is set (lib/pubsub.ts), an in-process ring
// otherwise (EventRing below). docs/subscriptions.md describes ids, the window and the gone signal.
import { loadContract } from './contract.js';

/** An event of a streamed topic: its id in the tenant's stream and its payload. */
export interface StreamEvent {
  id: string;
  payload: unknown;
}

/** The resume point is older than the retention window (or unknown): events may have been missed. */
export interface StreamGone {
  gone: true;
  after: string;
}

export type StreamItem = StreamEvent | StreamGone;

export function isGone(item: StreamItem): item is StreamGone {
  return (item as StreamGone).gone === true;
}

export interface StreamSettings {
  /** the tenant stream a topic's events go to; undefined: the topic is not streamed */
  streamOf(topic: string): string | undefined;
  /** kept per tenant stream: at most this many events ... */
  retainEvents: number;
  /** ... and none older than this */
  retainMs: number;
}

/** An event id: `<ms>-<seq>`, as Redis Streams write them (the in-process ring writes the same form). */
export const EVENT_ID = /^\d{1,15}-\d{1,15}$/;

export function isEventId(s: string): boolean {
  return EVENT_ID.test(s);
}

/** Orders two event ids of one stream. */
export function compareEventIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** The retained events of a stream after `after`, or gone when `after` is no longer retained. */
export type StreamHistory = (after: string) => Promise<{ gone: boolean; events: { id: string; topic: string; payload: unknown }[] }>;

/** Subscribes to a topic's live envelopes; `ready` resolves once no later publish can be missed. */
export type LiveListen = (topic: string, deliver: (e: StreamEvent) => void) => { ready: Promise<void>; off(): void };

/**
 * The topic's events after `after` (none given: live only): the live subscription starts first, then
 * the history is read, so every event is in one or both; ids already replayed are skipped live.
 */
export function resumableEvents(topic: string, listen: LiveListen, history: StreamHistory, after?: string): AsyncIterableIterator<StreamItem> {
  const queue: StreamItem[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let last = after;
  let replaying = after !== undefined;
  const held: StreamEvent[] = [];
  const push = (item: StreamItem) => {
    queue.push(item);
    wake?.();
  };
  const sub = listen(topic, (e) => {
    if (replaying) held.push(e);
    else if (!last || compareEventIds(e.id, last) > 0) {
      last = e.id;
      push(e);
    }
  });
  const started = (async () => {
    await sub.ready;
    if (after === undefined) return;
    const h = await history(after);
    if (h.gone) push({ gone: true, after });
    else
      for (const e of h.events) {
        if (e.topic !== topic) continue;
        last = e.id;
        push({ id: e.id, payload: e.payload });
      }
    replaying = false;
    for (const e of held.splice(0)) if (!last || compareEventIds(e.id, last) > 0) push(((last = e.id), e));
  })();
  let failure: unknown;
  started.catch((e) => {
    failure = e;
    wake?.();
  });
  const finish = async () => {
    done = true;
    sub.off();
    wake?.();
    return { done: true as const, value: undefined };
  };
  return {
    async next() {
      for (;;) {
        if (failure) throw failure;
        if (queue.length) return { done: false, value: queue.shift()! };
        if (done) return { done: true, value: undefined };
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    },
    return: finish,
    throw: async (e: unknown) => {
      await finish();
      throw e;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * A resume point not retained any more: nothing was missed only when no event came after it (the
 * stream's newest id is not later), e.g. a quiet stream whose events aged out.
 */
export function nothingAfter(after: string, newest: string | undefined): boolean {
  return newest !== undefined && compareEventIds(after, newest) >= 0;
}

interface RingEntry {
  id: string;
  topic: string;
  payload: unknown;
  at: number;
}

/** The in-process stream store: one ring per tenant stream, trimmed by count and age on each append. */
export class EventRing {
  private streams = new Map<string, RingEntry[]>();
  /** each stream's newest id, kept when its ring empties: a resume point at the newest missed nothing */
  private newest = new Map<string, string>();
  private lastMs = 0;
  private seq = 0;

  constructor(private settings: Pick<StreamSettings, 'retainEvents' | 'retainMs'>, private now: () => number = Date.now) {}

  /** Appends and returns the event's id (monotonic across this process's streams). */
  append(stream: string, topic: string, payload: unknown): string {
    const at = this.now();
    if (at > this.lastMs) {
      this.lastMs = at;
      this.seq = 0;
    } else this.seq++;
    const id = `${this.lastMs}-${this.seq}`;
    let ring = this.streams.get(stream);
    if (!ring) this.streams.set(stream, (ring = []));
    ring.push({ id, topic, payload, at });
    this.newest.set(stream, id);
    this.trim(stream, ring);
    return id;
  }

  history(stream: string): StreamHistory {
    return async (after) => {
      const ring = this.streams.get(stream) ?? [];
      this.trim(stream, ring);
      const i = ring.findIndex((e) => e.id === after);
      if (i >= 0) return { gone: false, events: ring.slice(i + 1) };
      return { gone: !nothingAfter(after, this.newest.get(stream)), events: [] };
    };
  }

  private trim(stream: string, ring: RingEntry[]): void {
    const oldest = this.now() - this.settings.retainMs;
    let drop = Math.max(0, ring.length - this.settings.retainEvents);
    while (drop < ring.length && ring[drop].at < oldest) drop++;
    if (drop) ring.splice(0, drop);
    if (!ring.length) this.streams.delete(stream);
  }
}

/** The retention of each tenant's event stream unless configured (SUBSCRIPTION_RETAIN_EVENTS, SUBSCRIPTION_RETAIN_SECONDS). */
export const DEFAULT_STREAM_RETENTION = { retainEvents: 1000, retainMs: 300_000 } as const;

/**
 * The streamed topics: the contract's Subscription topics (`<name>:<app id>:<environment>`), each
 * app and environment one stream (`<app id>:<environment>`) shared by all its topics, so one id
 * orders every Subscription event of the tenant.
 */
export function contractStreams(retention: Pick<StreamSettings, 'retainEvents' | 'retainMs'> = DEFAULT_STREAM_RETENTION): StreamSettings {
  return { ...retention, streamOf: tenantStreamOf(loadContract().subscriptions.fields.map((f) => f.topic)) };
}

/** `<name>:<tenant>` → `<tenant>` for the names given; undefined for any other topic. */
export function tenantStreamOf(names: readonly string[]): (topic: string) => string | undefined {
  const set = new Set(names);
  return (topic) => {
    const i = topic.indexOf(':');
    return i > 0 && set.has(topic.slice(0, i)) ? topic.slice(i + 1) : undefined;
  };
}
