// Single-fetch pass-through (gateway/single-fetch.ts): an operation planned as one fetch that selects
// what the client asked is answered with the subgraph's data as it is; the answers equal
// ApolloGateway's own, errors and all, and a fetch is never sent twice.
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { SUPERGRAPH_PATH } from '../../gateway/gateway.js';
import type { GatewayContext } from '../../gateway/data-source.js';
import { SingleFetch } from '../../gateway/single-fetch.js';

const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');

/** A subgraph that answers from `reply` and counts its fetches; like SignedDataSource, it honours `prefetched`. */
class FakeSource implements GraphQLDataSource {
  fetches: string[] = [];
  constructor(private readonly reply: (query: string, variables: Record<string, unknown>) => Record<string, unknown>) {}
  async process(options: Parameters<GraphQLDataSource['process']>[0]) {
    const ctx = options.context as Partial<GatewayContext>;
    if (ctx.prefetched && ctx.prefetched.query === options.request.query) {
      const p = ctx.prefetched;
      ctx.prefetched = undefined;
      if (!p.outcome.ok) throw p.outcome.error;
      return p.outcome.response;
    }
    this.fetches.push(options.request.query!);
    return this.reply(options.request.query!, options.request.variables ?? {}) as any;
  }
}

const product = (i: number) => ({ id: `p${i}`, name: `Product ${i}`, sku: `SKU-${i}`, price: { amount: 100 * i, currency: 'USD', formatted: `$${i}.00` } });

function catalogReply(query: string, variables: Record<string, unknown>): Record<string, unknown> {
  if (Object.values(variables).includes(13)) return { data: { products: null }, errors: [{ message: 'Missing scope: products:read', path: ['products'], extensions: { code: 'INSUFFICIENT_SCOPE' } }] };
  if (query.includes('page:')) return { data: { page: { count: 2, items: [{ id: 'p1', title: 'Product 1' }, { id: 'p2', title: 'Product 2' }] } } };
  if (query.includes('products')) return { data: { products: { total: 2, items: [product(1), product(2)] } } };
  return { data: {} };
}

async function stack(single: boolean) {
  const sources = new Map<string, FakeSource>();
  const singleFetch = single ? new SingleFetch(sdl, sources) : undefined;
  const gateway = new ApolloGateway({
    supergraphSdl: sdl,
    buildService: ({ name }) => {
      const s = new FakeSource(name === 'catalog' ? catalogReply : () => ({ data: { currentApp: { id: 'a1', name: 'App', __typename: 'App' } } }));
      sources.set(name, s);
      return s;
    },
    ...(singleFetch ? { experimental_didResolveQueryPlan: singleFetch.didResolveQueryPlan } : {}),
  });
  if (singleFetch) gateway.executor = singleFetch.wrap(gateway.executor);
  const server = new ApolloServer<GatewayContext>({ gateway });
  await server.start();
  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await server.executeOperation({ query, variables }, { contextValue: { tenant: { kind: 'service', requestId: 't', scopes: [] } } as unknown as GatewayContext });
    return r.body.kind === 'single' ? JSON.parse(JSON.stringify(r.body.singleResult)) : undefined;
  };
  return { server, run, sources, singleFetch };
}

const LIST = 'query List($n: Int!) { products(pageSize: $n) { total items { id name sku price { amount currency formatted } } } }';
const ALIASED = '{ page: products(pageSize: 2) { count: total items { ...F } } } fragment F on Product { id title: name }';

describe('single-fetch pass-through', () => {
  let on: Awaited<ReturnType<typeof stack>>;
  let off: Awaited<ReturnType<typeof stack>>;
  beforeAll(async () => {
    on = await stack(true);
    off = await stack(false);
  });
  afterAll(async () => {
    await on.server.stop();
    await off.server.stop();
  });

  it('answers a one-fetch query with the subgraph data, equal to the standard answer, after its plan is known', async () => {
    const first = await on.run(LIST, { n: 2 });
    expect(on.singleFetch!.counts.passedThrough).toBe(0); // the first request plans (standard path)
    const second = await on.run(LIST, { n: 2 });
    expect(on.singleFetch!.counts.passedThrough).toBe(1);
    const standard = await off.run(LIST, { n: 2 });
    expect(first).toEqual(standard);
    expect(second).toEqual(standard);
    expect(second.data.products.items[1].price.formatted).toBe('$2.00');
  });

  it('keeps aliases and named fragments as asked', async () => {
    await on.run(ALIASED);
    const passed = on.singleFetch!.counts.passedThrough;
    const a = await on.run(ALIASED);
    expect(on.singleFetch!.counts.passedThrough).toBe(passed + 1);
    expect(a).toEqual(await off.run(ALIASED));
    expect(a.data.page.items[0]).toEqual({ id: 'p1', title: 'Product 1' });
  });

  it('hands an answer with errors to the standard executor without fetching it again', async () => {
    await on.run(LIST, { n: 2 });
    const catalog = on.sources.get('catalog')!;
    const before = catalog.fetches.length;
    const handed = on.singleFetch!.counts.handedOn;
    const r = await on.run(LIST, { n: 13 });
    expect(catalog.fetches.length).toBe(before + 1);
    expect(on.singleFetch!.counts.handedOn).toBe(handed + 1);
    const standard = await off.run(LIST, { n: 13 });
    expect(r).toEqual(standard);
    expect(r.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('leaves bad variables to the standard executor (same error)', async () => {
    await on.run(LIST, { n: 2 });
    const r = await on.run(LIST, { n: 'two' });
    expect(r).toEqual(await off.run(LIST, { n: 'two' }));
    expect(r.errors[0].message).toMatch(/\$n/);
  });

  it('does not pass through a query that spans subgraphs', async () => {
    const q = '{ currentApp { id name products { id name } } }';
    await on.run(q);
    const passed = on.singleFetch!.counts.passedThrough;
    await on.run(q);
    expect(on.singleFetch!.counts.passedThrough).toBe(passed);
  });
});
