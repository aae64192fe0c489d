// The gateway's response cache (docs/response-cache.md). A query's answer is kept per tenant
// partition (the caller's app, environment, scopes and credential kind, and its user when a user
// token came along: never across tenants) under its normalised operation and variables, tagged with
// the entities and lists it shows (tags.ts), for as long as its hints allow (hints.ts). A hit is
// answered from the stored body before planning and before any subgraph fetch: one map lookup by the
// request's bytes and one epoch read (epochs.ts).
//
// Staleness, two mechanisms:
//  - exact: the subgraphs' after-commit events drop the tagged entries on every gateway (invalidation.ts);
//  - the write epoch: the gateway that forwards a mutation increments its app's epoch before it
//    answers, and an answer is served only while the epoch it was filled under is current, so a write
//    acknowledged through one gateway is never followed by a stale read through another.
import type { BaseContext, GraphQLRequestContext } from '@apollo/server';
import type { OperationHooks, OperationPlugin } from '../operation-plugins.js';
import { Kind, print, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import type { RedisClientType } from 'redis';
import { storedAnswer, type GraphQLAnswer, type GraphQLCall } from '../../lib/http.js';
import type { Logger } from '../../lib/logger.js';
import { observeResponseCache, trackResponseCache } from '../../lib/metrics.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { TenantContext } from '../../lib/tenant.js';
import { envInt } from '../../lib/config.js';
import { MemoryEpochs, RedisEpochs, type Epochs } from './epochs.js';
import { cachePolicy, type CachePolicy } from './hints.js';
import { EventInvalidation } from './invalidation.js';
import { EntryStore, type CacheEntry } from './store.js';
import { collectTags } from './tags.js';

/** What the Apollo plugin learns of one request, for the cache around it (kept in the request's context). */
interface Observed {
  /** the request may be stored (a cacheable caller and request) */
  fill: boolean;
  /** the operation's type, once resolved */
  kind?: 'query' | 'mutation' | 'subscription';
  policy?: CachePolicy;
  tags?: Set<string>;
  /** operation name, document and variables, normalised */
  canonical?: string;
}

/** The context slot the plugin writes to; a symbol, so Apollo's shallow copy of the context keeps it. */
export const RESPONSE_CACHE_SLOT = Symbol('responseCache');
export type ResponseCacheContext = { [RESPONSE_CACHE_SLOT]?: Observed };

export interface ResponseCacheOptions {
  /** RESPONSE_CACHE_MAX_BYTES: 0 turns the cache off (mutations still bump nothing then) */
  maxBytes: number;
}

/** RESPONSE_CACHE_MAX_BYTES (default 0: off). */
export function responseCacheOptions(env: NodeJS.ProcessEnv = process.env): ResponseCacheOptions {
  return { maxBytes: envInt(env, 'RESPONSE_CACHE_MAX_BYTES', 0, 0) };
}

/** The global epoch (moved by mutations of callers without an app), read and compared with the app's. */
const GLOBAL = '*';

/** Whether the caller's answers may be cached at all: an app's caller, in one of its environments. */
function partitioned(t: TenantContext): t is TenantContext & { appId: string; environment: NonNullable<TenantContext['environment']> } {
  return !!t.appId && !!t.environment;
}

/** The partition of a caller, or undefined when its answers are not cached (only app callers are). */
export function partitionOf(t: TenantContext): { key: string; tenant: string; app: string } | undefined {
  if (!partitioned(t)) return undefined;
  const key = [t.kind, t.appId, t.environment, t.keyType ?? '', t.scopes.join(','), t.userId ?? '', (t.userScopes ?? []).join(','), t.platformCode ?? '', t.boundPlatform ?? '', t.operatorPlatformId ?? '', t.platformId ?? '', t.accountId ?? ''].join('|');
  return { key, tenant: `${t.appId}:${t.environment}`, app: t.appId };
}

/** JSON with object keys sorted: equal variables give equal keys whatever their order. */
export function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}

/** A request's cache directives: `no-store` neither reads nor fills, `no-cache` fills without reading. */
function requestDirectives(headers: GraphQLCall['headers']): { read: boolean; fill: boolean } {
  const cc = headers['cache-control'];
  if (!cc) return { read: true, fill: true };
  const v = String(cc).toLowerCase();
  if (v.includes('no-store')) return { read: false, fill: false };
  if (v.includes('no-cache') || v.includes('max-age=0')) return { read: false, fill: true };
  return { read: true, fill: true };
}

/** An HTTP request the cache may read or fill (the REST bridge's in-process calls read the answer as a value: computed, never stored). */
function overHttp(call: GraphQLCall): boolean {
  const method = call.method.toUpperCase();
  return call.parsed === undefined && (method === 'GET' || (method === 'POST' && !!call.raw));
}

export class ResponseCache {
  readonly store: EntryStore;
  /** epochs read as a request arrived (arrived()), by its headers object (a registry's rewrite of the call keeps it): app and the read */
  private readonly early = new WeakMap<object, { app: string; epochs: Promise<string | undefined> }>();
  readonly invalidation: EventInvalidation;
  private readonly policies = new WeakMap<DocumentNode, Map<string, CachePolicy | null>>();
  private readonly untrack: () => void;

  constructor(
    readonly opts: ResponseCacheOptions,
    private readonly epochs: Epochs,
    pubsub: PubSub,
    private readonly log: Logger,
  ) {
    this.store = new EntryStore(opts.maxBytes);
    this.invalidation = new EventInvalidation(pubsub, this.store, log);
    this.untrack = trackResponseCache(() => ({ entries: this.store.size, bytes: this.store.bytes, max_bytes: this.opts.maxBytes }));
  }

  static create(opts: ResponseCacheOptions, deps: { pubsub: PubSub; redis?: RedisClientType; redisKeyPrefix: string; log: Logger }): ResponseCache {
    const epochs = deps.redis ? new RedisEpochs(deps.redis, deps.redisKeyPrefix, deps.log) : new MemoryEpochs();
    return new ResponseCache(opts, epochs, deps.pubsub, deps.log);
  }

  get enabled(): boolean {
    return this.opts.maxBytes > 0;
  }

  /** The epochs an answer is valid under: the global one and its app's, read at once. */
  private epoch(app: string): Promise<string | undefined> {
    return this.epochs.read([GLOBAL, app]);
  }

  /**
   * A request arrived (before authentication): an HTTP request naming an app (X-App-Id) that has
   * entries in this gateway reads its app's epochs now, so that the read goes to Redis with the key's rate-limit counters (one round
   * trip; node-redis writes the commands of one turn of the event loop together). serve() uses it
   * when the caller's app turns out to be that app. Reading at arrival keeps the guarantee: the read
   * still starts after the request did, and before its answer is computed.
   */
  arrived(call: GraphQLCall): void {
    if (!this.enabled || !overHttp(call)) return;
    const app = call.headers['x-app-id'];
    // only an app with entries here can be a hit: any other request reads its epochs when (if) it fills
    if (typeof app !== 'string' || !app || !this.store.holds(app)) return;
    const directives = requestDirectives(call.headers);
    if (!directives.read && !directives.fill) return;
    this.early.set(call.headers, { app, epochs: this.epoch(app) });
  }

  /** The epochs read as the request arrived, when they are its caller's app's (once); else read now. */
  private epochOf(call: GraphQLCall, app: string): Promise<string | undefined> {
    const early = this.early.get(call.headers);
    if (!early) return this.epoch(app);
    this.early.delete(call.headers);
    return early.app === app ? early.epochs : this.epoch(app);
  }

  /**
   * Answer `call` for `tenant`: from the cache when a current entry matches, else by `run` (given
   * the context fields the plugin reports through), storing a cacheable answer. A mutation's answer
   * is returned only once its app's epoch has moved.
   */
  async serve(call: GraphQLCall, tenant: TenantContext, run: (ctx: ResponseCacheContext) => Promise<GraphQLAnswer>): Promise<GraphQLAnswer> {
    const observed: Observed = { fill: false };
    const method = call.method.toUpperCase();
    // an app caller's HTTP request; one that neither reads nor fills (no-store) is answered without
    // its partition key and alias, which only a read or a fill uses
    const http = this.enabled && partitioned(tenant) && overHttp(call);
    const directives = http ? requestDirectives(call.headers) : { read: false, fill: false };
    const part = directives.read || directives.fill ? partitionOf(tenant) : undefined;
    let alias: string | undefined;
    /** the epochs this request reads (once: a stale entry's read serves the fill too, both before the answer is computed) */
    let read: Promise<string | undefined> | undefined;
    if (http && !directives.read) observeResponseCache('bypass');
    if (part) {
      read = this.epochOf(call, part.app);
      alias = `${part.key}\n${call.headers.accept ?? ''}\n${method === 'GET' ? call.url : call.raw!.toString('latin1')}`;
      const e = directives.read ? this.store.lookup(alias) : undefined;
      if (e) {
        const now = Date.now();
        if (e.expiresAt > now && (await read) === e.epochs) {
          observeResponseCache('hit');
          return hitAnswer(e, now);
        }
        this.store.remove(e.key);
        observeResponseCache('stale');
      }
    }
    let epochs: string | undefined;
    let seq = '';
    if (part && directives.fill) {
      observed.fill = true;
      this.invalidation.follow(part.tenant, tenant.appId!, tenant.environment!);
      // read before the answer is computed: a write acknowledged meanwhile moves it (epochs.ts)
      epochs = await (read ?? this.epoch(part.app));
      seq = this.invalidation.sequence(part.tenant);
    }
    const a = await run({ [RESPONSE_CACHE_SLOT]: observed });
    if (observed.kind === 'mutation') await this.written(tenant);
    if (!http) return a;
    if (directives.read) observeResponseCache('miss');
    if (part && alias && epochs !== undefined && observed.canonical && observed.policy && observed.tags && a.status === 200 && seq === this.invalidation.sequence(part.tenant)) {
      const now = Date.now();
      const key = `${part.key}\n${observed.canonical}`;
      const { policy, tags } = observed;
      const contentType = a.headers['content-type'] ?? 'application/json; charset=utf-8';
      const body = Buffer.from(a.body, 'utf8');
      const entry: CacheEntry = { key, tenant: part.tenant, app: part.app, body, route: a.route, contentType, storedAt: now, expiresAt: now + policy.maxAge * 1000, maxAge: policy.maxAge, scope: policy.scope, tags, epochs, bytes: EntryStore.sizeOf(key, body, tags) };
      if (this.store.put(entry, alias)) {
        a.headers['cache-control'] = `private, max-age=${policy.maxAge}`;
        a.headers.age = '0';
      }
    }
    return a;
  }

  /** After a mutation: its app's epoch moves (or the global one, for a caller without an app) before the answer goes out. */
  async written(tenant: TenantContext): Promise<void> {
    if (!this.enabled) return;
    const app = tenant.appId ?? GLOBAL;
    if (!(await this.epochs.bump(app))) this.log.error('response cache: the write epoch could not be moved; other gateways may serve answers older than this write until their entries expire or its events arrive', { appId: app });
    if (app === GLOBAL) this.store.invalidateTenants(() => true);
    else this.store.invalidateTenants((t) => t.startsWith(`${app}:`));
  }

  /** The gateway plugin that tells the cache each request's operation type, policy, tags and normalised key. */
  plugin<C extends BaseContext>(): OperationPlugin<C> {
    const policyOf = (rc: GraphQLRequestContext<C>) => this.policyOf(rc);
    // one set of hooks for every request (its state is in the request's context); neither waits for anything
    const hooks: OperationHooks<C> = {
      didResolveOperation(rc) {
        const observed = (rc.contextValue as ResponseCacheContext)[RESPONSE_CACHE_SLOT];
        if (!observed || !rc.operation) return;
        observed.kind = rc.operation.operation;
        if (observed.fill && observed.kind === 'query') observed.policy = policyOf(rc);
      },
      willSendResponse(rc) {
        const observed = (rc.contextValue as ResponseCacheContext)[RESPONSE_CACHE_SLOT];
        const body = rc.response.body;
        if (!observed?.policy || !rc.operation || !rc.document || body?.kind !== 'single') return;
        const result = body.singleResult;
        if (result.errors?.length || !result.data || (rc.response.http.status ?? 200) !== 200) return;
        const variables = rc.request.variables ?? {};
        observed.tags = collectTags(rc.schema, rc.operation, fragmentsOf(rc.document), result.data, variables);
        observed.canonical = `${rc.request.operationName ?? ''}\n${print(rc.document)}\n${stableJson(variables)}`;
      },
    };
    return { requestDidStart: () => hooks };
  }

  private policyOf(rc: GraphQLRequestContext<BaseContext>): CachePolicy | undefined {
    const doc = rc.document!;
    const name = rc.request.operationName ?? '';
    let byName = this.policies.get(doc);
    if (!byName) this.policies.set(doc, (byName = new Map()));
    let p = byName.get(name);
    if (p === undefined) byName.set(name, (p = cachePolicy(rc.schema, rc.operation!, fragmentsOf(doc)) ?? null));
    return p ?? undefined;
  }

  async stop(): Promise<void> {
    this.untrack();
    await this.invalidation.stop();
  }
}

const fragmentCache = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();
function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  let m = fragmentCache.get(doc);
  if (!m) {
    m = new Map();
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) m.set(d.name.value, d);
    fragmentCache.set(doc, m);
  }
  return m;
}

/** A stored answer: its bytes as stored, with how long it has been kept (Age) and may be kept (Cache-Control). */
function hitAnswer(e: CacheEntry, now: number): GraphQLAnswer {
  const headers = { 'content-type': e.contentType, 'cache-control': `private, max-age=${e.maxAge}`, age: String(Math.floor((now - e.storedAt) / 1000)), 'x-response-cache': 'hit' };
  return storedAnswer(200, headers, e.body, e.route);
}
