// Query cost end to end (docs/cost.md): every answer carries extensions.cost (and X-Cost-*), the
// estimate computed from the supergraph's @cost/@listSize; a key's cost budget per minute, spent,
// answers 429 RATE_LIMITED with Retry-After and recovers when the minute ends; the REST bridge's
// calls are charged the same way, once, and show the same as headers.
import type { ChildProcess } from 'node:child_process';
import { createTenant, gql, rest, stack, type Tenant } from '../harness/client.js';
import { stop, waitFor } from '../harness/spawn.js';
import { spawnScript } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';

const PAGE = 'query Page($n: Int!) { products(pageSize: $n) { total items { id name price { amount } } } }';
// products 1 + items n × (Product 1; name a scalar; price a value object read from the row: @cost(weight: 0))
const pageCost = (n: number) => 1 + n;

interface Cost {
  requested: number;
  limit: number | null;
  remaining: number | null;
  resetAt: string | null;
}
const costOf = (body: { extensions?: Record<string, unknown> }) => body.extensions?.cost as Cost;

describe('extensions.cost on the shared stack', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  test('a key caller: the estimate, the budget, what remains and when it resets; the same as headers', async () => {
    const r = await gql(PAGE, { n: 7 }, t.keyHeaders);
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('errors');
    const c = costOf(r.body as never);
    expect(c.requested).toBe(pageCost(7));
    // the test stack lifts the budget (COST_BUDGET_PER_MINUTE, test/harness/global-setup.mjs)
    expect(c.limit).toBe(1_000_000_000);
    expect(c.remaining).toBeLessThanOrEqual(c.limit! - c.requested);
    const reset = Date.parse(c.resetAt!) - Date.now();
    expect(reset).toBeGreaterThan(-1000);
    expect(reset).toBeLessThanOrEqual(60_000);
    expect(r.headers.get('x-cost-requested')).toBe(String(pageCost(7)));
    expect(r.headers.get('x-cost-limit')).toBe('1000000000');
    expect(Number(r.headers.get('x-cost-remaining'))).toBe(c.remaining);
    expect(Number(r.headers.get('x-cost-reset'))).toBeLessThanOrEqual(60);
  });

  test('the estimate follows the directives: a page size, a nested list with its own slicing argument', async () => {
    const r = await gql('{ products(pageSize: 3) { items { id variants(first: 4) { id sku } } } }', {}, t.keyHeaders);
    expect(r.status).toBe(200);
    // products 1 + 3 × (Product 1 + variants 4 × 1)
    expect(costOf(r.body as never).requested).toBe(1 + 3 * (1 + 4));
  });

  test('a JWT caller has no key budget: the estimate only', async () => {
    const r = await gql('{ __typename platforms { id } }', {}, t.platformHeaders);
    expect(r.status).toBe(200);
    expect(costOf(r.body as never)).toEqual({ requested: 20, limit: null, remaining: null, resetAt: null });
    expect(r.headers.get('x-cost-requested')).toBe('20');
    expect(r.headers.get('x-cost-remaining')).toBeNull();
  });

  test('over MAX_QUERY_COST: still 400 QUERY_TOO_COMPLEX, and nothing is charged', async () => {
    const before = costOf((await gql(PAGE, { n: 1 }, t.keyHeaders)).body as never);
    const r = await gql('{ products(pageSize: 100) { items { variants(first: 100) { id } } } }', {}, t.keyHeaders);
    expect(r.status).toBe(400);
    expect(r.body.errors![0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    expect(r.body.errors![0].message).toBe('Query cost 10101 exceeds the limit of 5000');
    const after = costOf((await gql(PAGE, { n: 1 }, t.keyHeaders)).body as never);
    if (after.remaining! > before.remaining!) return void console.warn('the minute ended between the calls; not judged this run');
    // only the second small page was charged between the two readings
    expect(after.remaining).toBe(before.remaining! - pageCost(1));
  });
});

// A gateway and a REST bridge of their own on the stack's subgraphs, with a budget of 50 units a minute.
const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const GATEWAY_PORT = BASE + 1430;
const REST_PORT = BASE + 1431;
const gateway = `http://127.0.0.1:${GATEWAY_PORT}/graphql`;
const BUDGET = 50;

describe(`a spent budget (COST_BUDGET_PER_MINUTE=${BUDGET})`, () => {
  let gw: ChildProcess;
  let bridge: ChildProcess;
  beforeAll(async () => {
    gw = spawnStackGateway(GATEWAY_PORT, { COST_BUDGET_PER_MINUTE: String(BUDGET) }, 'cost-gateway');
    const s = stack();
    bridge = spawnScript('rest-bridge/main.ts', { JWT_SECRET: s.env.JWT_SECRET, INTERNAL_SECRET: s.env.INTERNAL_SECRET, LOG_LEVEL: 'warn', GATEWAY_PORT: String(GATEWAY_PORT), REST_PORT: String(REST_PORT) }, 'cost-rest-bridge');
    await Promise.all([waitFor(`http://127.0.0.1:${GATEWAY_PORT}/health`, 150_000, gw), waitFor(`http://127.0.0.1:${REST_PORT}/health`, 150_000, bridge)]);
  }, 200_000);
  afterAll(async () => {
    await Promise.all([stop(bridge), stop(gw)]);
  });

  test('429 RATE_LIMITED with Retry-After once spent; other keys unaffected; recovers when the minute ends', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    // 21 + 21 = 42 of 50: both run
    for (let i = 0; i < 2; i++) {
      const r = await gql(PAGE, { n: 20 }, t.keyHeaders, gateway);
      expect(r.status).toBe(200);
      expect(costOf(r.body as never)).toMatchObject({ requested: 21, limit: BUDGET });
    }
    // 21 more does not fit in the 8 left: refused before any subgraph works
    const refused = await gql(PAGE, { n: 20 }, t.keyHeaders, gateway);
    if (refused.status === 200) return void console.warn('the minute ended between the calls; not judged this run');
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.errors![0].message).toMatch(/cost budget of 50 units per minute has 8 left, less than this operation's 21; retry in \d+ s/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(costOf(refused.body as never)).toMatchObject({ requested: 21, limit: BUDGET, remaining: 8 });
    // a smaller operation still fits (the refused one was not kept)
    const small = await gql(PAGE, { n: 5 }, t.keyHeaders, gateway);
    expect(small.status).toBe(200);
    expect(costOf(small.body as never)).toMatchObject({ requested: 6, remaining: 2 });
    // another key's budget is its own
    const fine = await gql(PAGE, { n: 20 }, other.keyHeaders, gateway);
    expect(fine.status).toBe(200);
    // the budget comes back when its minute ends
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 200));
    const again = await gql(PAGE, { n: 20 }, t.keyHeaders, gateway);
    expect(again.status).toBe(200);
    expect(costOf(again.body as never)).toMatchObject({ requested: 21, limit: BUDGET, remaining: BUDGET - 21 });
  }, 90_000);

  test('REST: X-Cost-* on the answer, the call charged once; spent → 429 RATE_LIMITED with Retry-After', async () => {
    const t = await createTenant();
    const restAt = (method: string, path: string) => fetch(`http://127.0.0.1:${REST_PORT}${path}`, { method, headers: t.keyHeaders });
    const first = await restAt('GET', '/v1/products?page[size]=1');
    expect(first.status).toBe(200);
    const spent = Number(first.headers.get('x-cost-requested'));
    expect(spent).toBeGreaterThan(0);
    expect(Number(first.headers.get('x-cost-limit'))).toBe(BUDGET);
    // charged once: what remains is the budget less this one call's estimate
    const remaining = Number(first.headers.get('x-cost-remaining'));
    if (remaining > BUDGET - spent) return void console.warn('the minute ended between the calls; not judged this run');
    expect(remaining).toBe(BUDGET - spent);
    expect(Number(first.headers.get('x-cost-reset'))).toBeLessThanOrEqual(60);
    // list pages of 20 until the budget is spent
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await restAt('GET', '/v1/products?page[size]=20');
      if (last.status !== 200) break;
      expect(last.headers.get('x-cost-requested')).toMatch(/^\d+$/);
    }
    if (last!.status === 200) return void console.warn('the minute ended between the calls; not judged this run');
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await last!.json()) as { errors: { code: string; status: string }[] };
    // the products service's error shape (JSON:API, codes as the spec writes them)
    expect(body.errors[0]).toMatchObject({ code: 'RATE_LIMITED', status: '429' });
  }, 60_000);
});

test('the shared stack still answers the REST bridge with X-Cost-* (in process)', async () => {
  const t = await createTenant();
  const r = await rest('GET', '/v1/products?page[size]=5', { headers: t.keyHeaders });
  expect(r.status).toBe(200);
  expect(r.headers.get('x-cost-requested')).toMatch(/^\d+$/);
  expect(r.headers.get('x-cost-limit')).toBe('1000000000');
});
