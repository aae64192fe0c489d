// This node's place among the search nodes (docs/search.md, "Placement"): it registers in
// search.nodes with a heartbeat, keeps a view of the live nodes, and from it answers which nodes hold
// an index (rendezvous hashing, ring.rules.ts). Every heartbeat it also
//  - unloads the engines it no longer holds (a node joined and took them) once the grace period is
//    over and their holders have loaded them, and
//  - when the live set changed (a node joined, left or died), loads the engines it now holds that a
//    peer has loaded (asked over HTTP: /internal/search/loaded), so a replaced or new holder is warm
//    before searches reach it.
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import type { PlacementConfig } from '../config.js';
import type { EngineRegistry } from '../engine-registry/engine-registry.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import { callNode } from './node-client.js';
import { heartbeat, indexStates, leave, liveNodes } from './node.store.js';
import { holdersOf, type RingNode } from './ring.rules.js';

/** An engine this node no longer holds is unloaded after this many grace periods even when its holders have not loaded it. */
const GRACE_BOUND = 6;

export interface PlacementDeps {
  cfg: PlacementConfig;
  pool: pg.Pool;
  engines: EngineRegistry;
  log: Logger;
  /** INTERNAL_SECRET: requests between nodes are signed as the gateway's are */
  secret: string;
  /** the engine budget: warming stops short of it */
  budgetBytes: number;
}

export interface PlacementStats {
  nodes: number;
  /** searches answered by this node's engines (its own and forwarded to it) */
  served: number;
  /** searches this node sent to a holder */
  forwarded: number;
  /** forwards that failed (timeout, connection refused, an answer not in the protocol) */
  forwardFailures: number;
  /** searches answered here because no holder answered */
  fallbacks: number;
  warmed: number;
  unloaded: number;
}

export class Placement {
  readonly self: RingNode;
  private nodes: RingNode[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private sweeping = false;
  private notHeldSince = new Map<string, number>();
  /** holders per index for the current view (cleared when the live set changes) */
  private holdersCache = new Map<string, RingNode[]>();
  /** nodes that refused a connection, until when they are tried last */
  private unreachable = new Map<string, number>();
  private warming: Promise<void> | undefined;
  /** the engines each peer had loaded when this node last warmed (asked at every change of the live set) */
  private peerLoaded = new Map<string, Set<string>>();
  private warmAgain = false;
  private stopped = false;
  readonly counts = { served: 0, forwarded: 0, forwardFailures: 0, fallbacks: 0, warmed: 0, unloaded: 0 };

  constructor(private o: PlacementDeps) {
    this.self = { id: o.cfg.nodeId, url: o.cfg.nodeUrl };
  }

  get cfg(): PlacementConfig {
    return this.o.cfg;
  }

  /** Register, read the live set once (the first request finds the ring), then beat. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.o.cfg.heartbeatMs);
    this.timer.unref();
    this.o.log.info('search node registered', { node: this.self.id, url: this.self.url, replicas: this.o.cfg.replicas, nodes: this.nodes.map((n) => n.id) });
  }

  /** Leave the ring on purpose: the other nodes take this one's share at their next heartbeat. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.warming?.catch(() => undefined);
    await leave(this.o.pool, this.self.id).catch((err) => this.o.log.warn('search node could not leave the registry', { err }));
  }

  /** The live nodes as this node sees them (itself always among them). */
  view(): RingNode[] {
    return this.nodes.some((n) => n.id === this.self.id) ? this.nodes : [...this.nodes, this.self].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The nodes holding `indexId`, best first. */
  holders(indexId: string): RingNode[] {
    let h = this.holdersCache.get(indexId);
    if (!h) {
      h = holdersOf(this.view(), indexId, this.o.cfg.replicas);
      // bounded: a view with many indexes just recomputes the overflow
      if (this.holdersCache.size < 100_000) this.holdersCache.set(indexId, h);
    }
    return h;
  }

  holds(indexId: string): boolean {
    return this.holders(indexId).some((n) => n.id === this.self.id);
  }

  /**
   * Where a search of `indexId` goes: undefined when this node holds it; else its holders in the
   * order to try them, starting at a random one so a hot index's searches spread over its R holders.
   */
  elsewhere(indexId: string): RingNode[] | undefined {
    const h = this.holders(indexId);
    if (h.some((n) => n.id === this.self.id)) return undefined;
    const first = Math.floor(Math.random() * h.length);
    const order = [...h.slice(first), ...h.slice(0, first)];
    // a node that just refused a connection is tried last until its heartbeat says whether it is gone
    const now = Date.now();
    return [...order.filter((n) => !(this.unreachable.get(n.id)! > now)), ...order.filter((n) => this.unreachable.get(n.id)! > now)];
  }

  /**
   * The other holders of `indexId` that had its engine loaded when last asked: a search this node
   * holds but has not loaded yet (it just took the index over) goes to them while it loads here.
   */
  warmPeers(indexId: string): RingNode[] {
    return this.holders(indexId).filter((n) => n.id !== this.self.id && this.peerLoaded.get(n.id)?.has(indexId));
  }

  /** A forward to `nodeId` failed to connect: try it last for a heartbeat-staleness period. */
  unreachableNode(nodeId: string): void {
    this.unreachable.set(nodeId, Date.now() + this.o.cfg.staleMs);
  }

  stats(): PlacementStats {
    return { nodes: this.view().length, ...this.counts };
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      await heartbeat(this.o.pool, this.self);
      const live = await liveNodes(this.o.pool, this.o.cfg.staleMs);
      const before = this.nodes.map((n) => n.id).join(' ');
      if (live.map((n) => `${n.id} ${n.url}`).join('\n') !== this.nodes.map((n) => `${n.id} ${n.url}`).join('\n')) this.holdersCache.clear();
      this.nodes = live;
      for (const [id, until] of this.unreachable) if (until <= Date.now()) this.unreachable.delete(id);
      const after = live.map((n) => n.id).join(' ');
      if (before !== after) {
        this.o.log.info('search nodes changed', { node: this.self.id, nodes: live.map((n) => n.id) });
        this.warm();
      }
      // beside the heartbeat, never delaying it (it asks peers over HTTP)
      if (!this.sweeping) {
        this.sweeping = true;
        void this.sweep()
          .catch((err) => this.o.log.warn('search node sweep failed', { err }))
          .finally(() => (this.sweeping = false));
      }
    } catch (err) {
      // the database is away: keep the last view; the others will see this node stale if it lasts
      this.o.log.warn('search node heartbeat failed', { err });
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Unload the engines this node no longer holds once the grace period is over and their holders
   * have them loaded (asked over HTTP), so a search never finds no warm copy; at the latest after
   * GRACE_BOUND grace periods (a holder that does not load it, its budget full, loads on first search).
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const loaded = new Set(this.o.engines.loadedIds());
    for (const id of this.notHeldSince.keys()) if (!loaded.has(id)) this.notHeldSince.delete(id);
    const due: string[] = [];
    for (const id of loaded) {
      if (this.holds(id)) {
        this.notHeldSince.delete(id);
        continue;
      }
      const since = this.notHeldSince.get(id) ?? now;
      this.notHeldSince.set(id, since);
      if (now - since >= this.o.cfg.graceMs) due.push(id);
    }
    if (!due.length) return;
    const peers = [...new Map(due.flatMap((id) => this.holders(id)).map((n) => [n.id, n])).values()];
    const lists = new Map(await Promise.all(peers.map(async (p) => [p.id, new Set(await this.loadedOn(p))] as const)));
    for (const id of due) {
      const warmElsewhere = this.holders(id).every((n) => lists.get(n.id)?.has(id));
      if (!warmElsewhere && now - this.notHeldSince.get(id)! < this.o.cfg.graceMs * GRACE_BOUND) continue;
      if (this.o.engines.unload(id, 'held by other search nodes')) {
        this.notHeldSince.delete(id);
        this.counts.unloaded++;
      }
    }
  }

  /** The engines `node` has loaded ([] when it does not answer). */
  private async loadedOn(node: RingNode): Promise<string[]> {
    const a = await callNode<{ indexIds: string[] }>(node, '/internal/search/loaded', { kind: 'service', requestId: `placement:${this.self.id}`, scopes: [] }, {}, this.o.secret, 5000).catch(() => undefined);
    return a && 'ok' in a ? a.ok.indexIds : [];
  }

  /** Load what this node now holds and a peer has loaded (one pass at a time; a change meanwhile runs another). */
  private warm(): void {
    if (this.warming) {
      this.warmAgain = true;
      return;
    }
    this.warming = this.warmOnce()
      .catch((err) => this.o.log.warn('search node warm-up failed', { err }))
      .finally(() => {
        this.warming = undefined;
        if (this.warmAgain && !this.stopped) {
          this.warmAgain = false;
          this.warm();
        }
      });
  }

  private async warmOnce(): Promise<void> {
    const peers = this.view().filter((n) => n.id !== this.self.id);
    const lists = await Promise.all(peers.map((p) => this.loadedOn(p)));
    this.peerLoaded = new Map(peers.map((p, i) => [p.id, new Set(lists[i])]));
    const loaded = new Set(this.o.engines.loadedIds());
    const wanted = [...new Set(lists.flat())].filter((id) => !loaded.has(id) && this.holds(id));
    if (!wanted.length) return;
    const started = Date.now();
    let n = 0;
    for (let i = 0; i < wanted.length && !this.stopped; i += 100) {
      for (const row of await indexStates(this.o.pool, wanted.slice(i, i + 100))) {
        // a full budget would only unload what was just loaded
        if (this.stopped || this.o.engines.stats().bytes > this.o.engines.limitBytes() * 0.9) break;
        if (!this.holds(row.id)) continue;
        await this.o.engines
          .get({ id: row.id, settings: row.settings as unknown as IndexSettingsData, appliedTaskId: Number(row.applied_task_id), purgedThroughTaskId: Number(row.purged_through_task_id) }, true, 'background')
          .then(() => n++)
          .catch((err) => this.o.log.warn('search node could not warm an engine', { indexId: row.id, err }));
      }
    }
    this.counts.warmed += n;
    this.o.log.info('search node warmed the engines it now holds', { node: this.self.id, engines: n, wanted: wanted.length, ms: Date.now() - started });
  }
}
