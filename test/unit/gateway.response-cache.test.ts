// The response cache's pure parts (gateway/response-cache/): hints decide what may be cached,
// tags name what an answer shows, the store is bounded by bytes and invalidates by tag, and the
// serve path answers a second identical request from the cache and moves the epoch on a mutation.
import { readFileSync } from 'node:fs';
import { getOperationAST, Kind, parse, type FragmentDefinitionNode } from 'graphql';
import { cachePolicy } from '../../gateway/response-cache/hints.js';
import { collectTags } from '../../gateway/response-cache/tags.js';
import { EntryStore, type CacheEntry } from '../../gateway/response-cache/store.js';
import { MemoryEpochs } from '../../gateway/response-cache/epochs.js';
import { partitionOf, ResponseCache, RESPONSE_CACHE_SLOT, stableJson } from '../../gateway/response-cache/response-cache.js';
import { tagsOfEvent } from '../../gateway/response-cache/invalidation.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import { createLogger } from '../../lib/logger.js';
import type { TenantContext } from '../../lib/tenant.js';
import type { GraphQLAnswer } from '../../lib/http.js';
import { resolve } from 'node:path';
import { ApolloGateway } from '@apollo/gateway';

let schema: import('graphql').GraphQLSchema;
beforeAll(async () => {
  // the API schema as the gateway serves it
  const gw = new ApolloGateway({ supergraphSdl: readFileSync(resolve(import.meta.dirname, '..', '..', 'schema', 'supergraph.graphql'), 'utf8') });
  const loaded = await gw.load();
  schema = loaded.schema;
  await gw.stop();
});

const doc = (q: string) => {
  const d = parse(q);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of d.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return { op: getOperationAST(d)!, fragments };
};

describe('hints', () => {
  test('catalog reads are cacheable for the least maxAge they meet', () => {
    const { op, fragments } = doc('{ product(id: "p") { id name price { amount } variants { id name } } }');
    expect(cachePolicy(schema, op, fragments)).toEqual({ maxAge: 300, scope: 'PUBLIC' });
  });
  test('inventory anywhere in the selection, fragments included, makes it uncacheable', () => {
    expect(cachePolicy(schema, doc('{ product(id: "p") { id inventory { quantity } } }').op, new Map())).toBeUndefined();
    const d = doc('{ products { items { ...P } } } fragment P on Product { id variants { inventory { available } } }');
    expect(cachePolicy(schema, d.op, d.fragments)).toBeUndefined();
  });
  test('mutations, introspection and root fields without a hint are never cached', () => {
    expect(cachePolicy(schema, doc('mutation { deleteProduct(id: "p") }').op, new Map())).toBeUndefined();
    expect(cachePolicy(schema, doc('{ __schema { queryType { name } } }').op, new Map())).toBeUndefined();
    expect(cachePolicy(schema, doc('{ inventoryLocations { id } }').op, new Map())).toBeUndefined();
    expect(cachePolicy(schema, doc('{ product(id: "p") { id } inventoryLocations { id } }').op, new Map())).toBeUndefined();
  });
});

describe('tags', () => {
  test('entities by id, lists as Type:*, unnamed objects as Type:*', () => {
    const { op, fragments } = doc('{ products { items { id name variants { id } } } a: product(id: "p3") { name } }');
    const data = { products: { items: [{ id: 'p1', name: 'x', variants: [{ id: 'v1' }] }, { id: 'p2', name: 'y', variants: [] }] }, a: { name: 'z' } };
    expect([...collectTags(schema, op, fragments, data, {})].sort()).toEqual(['Product:*', 'Product:p1', 'Product:p2', 'Variant:*', 'Variant:v1']);
  });
  test('aliased ids and index arguments', () => {
    const { op, fragments } = doc('query($u: String!) { searchIndex(indexUid: $u) { id } p: product(id: "p") { key: id } }');
    const tags = collectTags(schema, op, fragments, { searchIndex: { id: 's1' }, p: { key: 'p9' } }, { u: 'movies' });
    expect(tags.has('Index:movies')).toBe(true);
    expect(tags.has('Product:p9')).toBe(true);
  });
  test('events name the tags they drop', () => {
    expect(tagsOfEvent('product', { productId: 'p1' })).toEqual(['Product:p1', 'Product:*', 'Variant:*']);
    expect(tagsOfEvent('search', { indexUid: 'movies' })).toEqual(['Index:movies', 'Index:*']);
  });
});

const entry = (key: string, tenant: string, tags: string[], body = Buffer.from('x'.repeat(100))): CacheEntry => ({
  key, tenant, app: tenant.split(':')[0]!, route: 'q', body, contentType: 'application/json', storedAt: 0, expiresAt: Infinity, maxAge: 60, scope: 'PUBLIC',
  tags: new Set(tags), epochs: '0.0', bytes: EntryStore.sizeOf(key, body, new Set(tags)),
});

describe('store', () => {
  test('bounded by bytes: the least recently used go first; an answer over a quarter of the bound is not stored', () => {
    const one = EntryStore.sizeOf('k0', Buffer.from('x'.repeat(100)), new Set(['Product:p']));
    const s = new EntryStore(one * 4);
    for (let i = 0; i < 4; i++) expect(s.put(entry(`k${i}`, 'app:test', ['Product:p']), `a${i}`)).toBe(true);
    expect(s.lookup('a0')?.key).toBe('k0'); // k0 now the most recent
    s.put(entry('k4', 'app:test', ['Product:p']), 'a4');
    expect(s.size).toBe(4);
    expect(s.lookup('a1')).toBeUndefined();
    expect(s.lookup('a0')?.key).toBe('k0');
    expect(s.bytes).toBeLessThanOrEqual(one * 4);
    expect(s.put(entry('big', 'app:test', [], Buffer.from('x'.repeat(one))), 'big')).toBe(false);
  });
  test('tags invalidate within their tenant only', () => {
    const s = new EntryStore(1 << 20);
    s.put(entry('k1', 'a1:test', ['Product:p1']), 'x1');
    s.put(entry('k2', 'a1:test', ['Product:p2']), 'x2');
    s.put(entry('k3', 'a2:test', ['Product:p1']), 'x3');
    expect(s.invalidateTags('a1:test', ['Product:p1'])).toBe(1);
    expect(s.lookup('x1')).toBeUndefined();
    expect(s.lookup('x2')).toBeDefined();
    expect(s.lookup('x3')).toBeDefined();
  });
});

describe('serve', () => {
  const tenant: TenantContext = { kind: 'key', requestId: 'r', scopes: ['products:read'], appId: 'app_1', environment: 'test', keyId: 'k1' };
  test('partitions: apps, environments, scopes and users apart; key ids alike; no app, no caching', () => {
    const k = (t: Partial<TenantContext>) => partitionOf({ ...tenant, ...t })?.key;
    expect(k({})).toBe(k({ keyId: 'k2', requestId: 'other' }));
    expect(k({})).not.toBe(k({ appId: 'app_2' }));
    expect(k({})).not.toBe(k({ environment: 'live' }));
    expect(k({})).not.toBe(k({ scopes: ['products:read', 'products:write'] }));
    expect(k({})).not.toBe(k({ userId: 'u1' }));
    expect(k({ appId: undefined })).toBeUndefined();
    expect(stableJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(stableJson({ a: [{ c: 2, d: 1 }], b: 1 }));
  });

  test('the second identical request is a hit; a mutation moves the epoch and the next read recomputes', async () => {
    const log = createLogger({}, 'silent');
    const cache = new ResponseCache({ maxBytes: 1 << 20 }, new MemoryEpochs(), createMemoryPubSub(), log);
    let runs = 0;
    // stands in for Apollo and the plugin: what the plugin reports for a cacheable query, or a mutation
    const run = (kind: 'query' | 'mutation') => async (ctx: Record<symbol, any>): Promise<GraphQLAnswer> => {
      runs++;
      const o = ctx[RESPONSE_CACHE_SLOT];
      o.kind = kind;
      if (kind === 'query' && o.fill) Object.assign(o, { policy: { maxAge: 60, scope: 'PUBLIC' }, tags: new Set(['Product:p1']), canonical: 'q' });
      return { status: 200, headers: { 'content-type': 'application/json' }, body: `{"data":{"n":${runs}}}`, route: 'q' };
    };
    const call = { method: 'POST', headers: {}, url: '/graphql', raw: Buffer.from('{"query":"{ product }"}') };
    const a = await cache.serve(call, tenant, run('query'));
    expect(a.headers['cache-control']).toBe('private, max-age=60');
    const b = await cache.serve(call, tenant, run('query'));
    expect(b.headers['x-response-cache']).toBe('hit');
    expect(b.body).toBe(a.body);
    expect(runs).toBe(1);
    await cache.serve({ ...call, raw: Buffer.from('{"query":"mutation { x }"}') }, tenant, run('mutation'));
    const c = await cache.serve(call, tenant, run('query'));
    expect(c.headers['x-response-cache']).toBeUndefined();
    expect(runs).toBe(3);
    // an event for the product drops the entry
    expect((await cache.serve(call, tenant, run('query'))).headers['x-response-cache']).toBe('hit');
    cache.invalidation.onEvent('app_1:test', 'product', { productId: 'p1' });
    expect((await cache.serve(call, tenant, run('query'))).headers['x-response-cache']).toBeUndefined();
    await cache.stop();
  });

  test('the epochs read as a request arrives are the ones it compares (one read a request, none for an app with no entry); a write before it arrived is seen', async () => {
    class CountingEpochs extends MemoryEpochs {
      reads = 0;
      override async read(scopes: readonly string[]): Promise<string> {
        this.reads++;
        return super.read(scopes);
      }
    }
    const epochs = new CountingEpochs();
    const cache = new ResponseCache({ maxBytes: 1 << 20 }, epochs, createMemoryPubSub(), createLogger({}, 'silent'));
    const run = async (ctx: Record<symbol, any>): Promise<GraphQLAnswer> => {
      const o = ctx[RESPONSE_CACHE_SLOT];
      o.kind = 'query';
      if (o.fill) Object.assign(o, { policy: { maxAge: 60, scope: 'PUBLIC' }, tags: new Set(['Product:p1']), canonical: 'q' });
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":{}}', route: 'q' };
    };
    // a request as the gateway receives it: its own headers object (the early read is kept by it)
    const arrive = (app = 'app_1') => {
      const call = { method: 'POST', headers: { 'x-app-id': app }, url: '/graphql', raw: Buffer.from('{"query":"{ product }"}') };
      cache.arrived(call);
      return call;
    };
    const served = async (call: ReturnType<typeof arrive>) => (await cache.serve(call, tenant, run)).headers['x-response-cache'];
    expect(await served(arrive())).toBeUndefined();
    expect(epochs.reads).toBe(1);
    expect(await served(arrive())).toBe('hit');
    expect(epochs.reads).toBe(2);
    // another gateway's write, acknowledged before the next request arrived: its early read sees it
    await epochs.bump('app_1');
    expect(await served(arrive())).toBeUndefined();
    expect(await served(arrive())).toBe('hit');
    expect(epochs.reads).toBe(4);
    // an app with no entry here reads nothing as it arrives (it cannot be a hit); serve reads the caller's app's once
    cache.arrived({ method: 'POST', headers: { 'x-app-id': 'app_2' }, url: '/graphql', raw: Buffer.from('{}') });
    expect(epochs.reads).toBe(4);
    expect(await served(arrive('app_2'))).toBe('hit');
    expect(epochs.reads).toBe(5);
    // no-store: nothing read
    const bypass = { method: 'POST', headers: { 'x-app-id': 'app_1', 'cache-control': 'no-store' }, url: '/graphql', raw: Buffer.from('{}') };
    cache.arrived(bypass);
    expect(epochs.reads).toBe(5);
    await cache.stop();
  });
});
