// The cost feature's own CPU per request, apart from everything else a request costs: the plugin's
// hooks (gateway/cost/cost-plugin.ts) as Apollo calls them for a key caller's query (requestDidStart,
// didResolveOperation with the estimate and the spend, responseForOperation, willSendResponse), on
// the in-process limiter and, with REDIS_URL, on Redis as the gateway has it (lib/redis-fallback).
// A request through the gateway costs ~300-1,000 µs; this part is too small to see in those figures'
// noise, so it is timed here on its own. A/B: COST_AB_TREES=<tree>,<tree> (each built with `npm run
// build`: their dist/ plugin is loaded), alternating rounds; default this tree. COST_N (20,000) requests
// a round, 16 in flight, COST_ROUNDS (6).
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { HeaderMap } from '@apollo/server';
import { createLogger } from '../lib/logger.js';
import { MemoryRateLimiter, type RateLimiter } from '../lib/rate-limit.js';
import { sharedRateLimiter } from '../lib/redis-fallback.js';
import { closeRedis, connectRedis } from '../lib/redis.js';

const ROOT = resolve(import.meta.dirname, '..');
const trees = (process.env.COST_AB_TREES ?? ROOT).split(',').map((p) => resolve(p));
const N = Number(process.env.COST_N ?? 20_000);
const ROUNDS = Number(process.env.COST_ROUNDS ?? 6);
const IN_FLIGHT = 16;

type Listener = Record<'didResolveOperation' | 'responseForOperation' | 'willSendResponse', (rc: unknown) => Promise<unknown>>;
type Extension = { plugins: { requestDidStart(rc: unknown): Promise<Listener> }[] };
type CostExtension = (deps: { limiter: RateLimiter; budgets: Record<string, number>; measures: unknown; maxCost: number }) => Extension;

const log = createLogger({}, 'error');
const redis = process.env.REDIS_URL ? await connectRedis({ redisUrl: process.env.REDIS_URL }, log) : undefined;
const limiters: [string, RateLimiter][] = [['in-process limiter', new MemoryRateLimiter()]];
if (redis) limiters.push(['redis limiter', sharedRateLimiter(redis, `bench-cost-${process.pid}:`, log, 'cost bench')]);

// the estimate as the kept measures give it (a lookup: gateway/limits.ts), the same for both trees
const measures = { measure: () => ({ depth: 3, cost: 21 }) };
const budgets = { free: 1e15, default: 1e15 };
const tenant = { kind: 'key', scopes: [], requestId: 'r', keyId: 'key_bench', appId: 'app_bench', plan: 'free' };

/** One request's hooks, in Apollo's order, on a request context shaped as Apollo's. */
async function request(plugin: Extension['plugins'][number]): Promise<void> {
  const rc = {
    operation: { operation: 'query' },
    document: {},
    operationName: null,
    schema: {},
    request: { variables: {} },
    contextValue: { tenant },
    response: { http: { headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: { products: { total: 20 } } } } },
  };
  const l = await plugin.requestDidStart(rc);
  await l.didResolveOperation(rc);
  if (await l.responseForOperation(rc)) throw new Error('refused');
  await l.willSendResponse(rc);
}

const plugins = await Promise.all(
  trees.map(async (tree) => {
    const { costExtension } = (await import(pathToFileURL(resolve(tree, 'dist/gateway/cost/cost-plugin.js')).href)) as { costExtension: CostExtension };
    return limiters.map(([, limiter]) => costExtension({ limiter, budgets, measures, maxCost: 5000 }).plugins[0]!);
  }),
);

console.log(`# bench/cost-plugin.bench.ts: ${trees.map((t, i) => `${'AB'[i]} ${t}`).join(', ')}; ${N} requests a round, ${IN_FLIGHT} in flight`);
const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [l, [what]] of limiters.entries()) {
    const order = trees.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const t of order) {
      const plugin = plugins[t]![l]!;
      for (let i = 0; i < 2000; i++) await request(plugin);
      let sent = 0;
      const c0 = process.cpuUsage();
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (sent++ < N) await request(plugin);
      }));
      const c = process.cpuUsage(c0);
      const us = (c.user + c.system) / N;
      const key = `${'AB'[t]} ${what}`;
      results.set(key, [...(results.get(key) ?? []), us]);
      console.log(`round ${round} ${key.padEnd(22)} ${us.toFixed(2).padStart(7)} µs cpu/request  load ${loadavg()[0]!.toFixed(1)}`);
    }
  }
}
for (const [key, v] of results) {
  const s = [...v].sort((a, b) => a - b);
  console.log(`${key.padEnd(22)} µs cpu/request: min ${s[0]!.toFixed(2)} median ${s[Math.floor(s.length / 2)]!.toFixed(2)} max ${s[s.length - 1]!.toFixed(2)}`);
}
await closeRedis(redis);
