// Exact invalidation by the subgraphs' after-commit domain events. A gateway listens on a tenant's
// event topics (the same per-tenant topics as the subscriptions: in process, or Redis pub/sub across
// processes) from the first time it fills an answer of that tenant, and on each event drops exactly
// the entries tagged with what the event names (tags.ts):
//  - product.* / variant.* (productId): Product:<id>, Product:*, Variant:* (variant events name the product only);
//  - inventory.* (productId, variantId): Product:<id>, Variant:<id>, and their lists;
//  - search task progress and index events (indexUid): Index:<uid>, Index:*;
//  - keys.invalidated (key, app, account and platform changes): every entry of the apps named; of
//    every app when accounts or platforms are named (their apps are not known here).
// Each handled event also moves the tenant's local sequence, so an answer being computed while the
// event arrived is not stored (it may have read the data before the change).
import type { Logger } from '../../lib/logger.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { Environment } from '../../lib/tenant.js';
import { loadContract } from '../../lib/contract.js';
import { appTopic, KEYS_INVALIDATED_TOPIC, SEARCH_INDEX_EVENTS_TOPIC, type KeysInvalidatedPayload } from '../../lib/events.js';

type Payload = Record<string, unknown>;

/** The tags an event invalidates within its tenant (empty: not an event the cache knows). */
export function tagsOfEvent(topicKind: TopicKind, p: Payload): string[] {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  switch (topicKind) {
    case 'product': {
      const id = str(p.productId);
      return [...(id ? [`Product:${id}`] : []), 'Product:*', 'Variant:*'];
    }
    case 'inventory': {
      const id = str(p.productId);
      const variant = str(p.variantId);
      return [...(id ? [`Product:${id}`] : []), ...(variant ? [`Variant:${variant}`] : []), 'Product:*', 'Variant:*'];
    }
    case 'search': {
      const uid = str(p.indexUid);
      return [...(uid ? [`Index:${uid}`] : []), 'Index:*'];
    }
  }
}

export type TopicKind = 'product' | 'inventory' | 'search';

/** The topic of a Subscription field the subgraphs declare in the generated contract (schema/contract.json). */
function contractTopic(field: string): (appId: string, env: Environment) => string {
  const f = loadContract().subscriptions.fields.find((x) => x.field === field);
  if (!f) throw new Error(`schema/contract.json declares no Subscription field ${field}`);
  return appTopic(f.topic);
}

const TOPICS: ReadonlyArray<{ kind: TopicKind; topic: (appId: string, env: Environment) => string }> = [
  { kind: 'product', topic: contractTopic('productEvents') },
  { kind: 'inventory', topic: contractTopic('inventoryEvents') },
  { kind: 'search', topic: contractTopic('taskEvents') },
  { kind: 'search', topic: appTopic(SEARCH_INDEX_EVENTS_TOPIC) },
];

export interface InvalidationTarget {
  invalidateTags(tenant: string, tags: string[]): void;
  invalidateTenants(match: (tenant: string) => boolean): void;
}

/** The listeners of one gateway: per tenant from its first fill, keys.invalidated from the start. */
export class EventInvalidation {
  private readonly listening = new Map<string, AsyncIterator<unknown>[]>();
  /** per tenant: moves on every event handled for it; `all` moves on every tenant-wide drop */
  private readonly seq = new Map<string, number>();
  private all = 0;
  private readonly keys: AsyncIterator<unknown> & AsyncIterable<unknown>;
  private readonly running: Promise<void>[] = [];

  constructor(private readonly pubsub: PubSub, private readonly target: InvalidationTarget, private readonly log: Logger) {
    this.keys = pubsub.subscribe(KEYS_INVALIDATED_TOPIC);
    this.running.push(this.drain(this.keys, (p) => this.onKeys(p as KeysInvalidatedPayload)));
  }

  /** The tenant's sequence now (compare before and after computing an answer). */
  sequence(tenant: string): string {
    return `${this.all}.${this.seq.get(tenant) ?? 0}`;
  }

  /** Listen to the tenant's topics (once per tenant). */
  follow(tenant: string, appId: string, env: Environment): void {
    if (this.listening.has(tenant)) return;
    const its: AsyncIterator<unknown>[] = [];
    this.listening.set(tenant, its);
    for (const { kind, topic } of TOPICS) {
      const it = this.pubsub.subscribe(topic(appId, env));
      its.push(it);
      this.running.push(this.drain(it, (p) => this.onEvent(tenant, kind, p as Payload)));
    }
  }

  onEvent(tenant: string, kind: TopicKind, p: Payload): void {
    this.seq.set(tenant, (this.seq.get(tenant) ?? 0) + 1);
    this.target.invalidateTags(tenant, tagsOfEvent(kind, p ?? {}));
  }

  onKeys(p: KeysInvalidatedPayload): void {
    this.all++;
    const apps = new Set(p.appIds ?? []);
    const everything = !!(p.accountIds?.length || p.platformIds?.length || p.operatorPlatformIds?.length);
    this.target.invalidateTenants((tenant) => everything || apps.has(tenant.slice(0, tenant.lastIndexOf(':'))));
  }

  private async drain(it: AsyncIterator<unknown>, handle: (p: unknown) => void): Promise<void> {
    try {
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        handle(r.value);
      }
    } catch (e) {
      this.log.error('response cache invalidation listener stopped', { err: e });
    }
  }

  async stop(): Promise<void> {
    const its = [this.keys, ...[...this.listening.values()].flat()];
    this.listening.clear();
    await Promise.all(its.map((it) => it.return?.()));
    await Promise.all(this.running);
  }
}
