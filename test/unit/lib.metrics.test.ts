// lib/metrics.ts without a stack: request counting and timing, bounded route labels, sources read
// at scrape time and dropped when untracked, and METRICS_TOKEN.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { labelRoute, observeRequest, registry, sendMetrics, trackJobQueue, trackPool } from '../../lib/metrics.js';

let server: Server;
let base: string;
let token: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/metrics') return void sendMetrics(req, res, token);
    observeRequest('unit', req, res);
    labelRoute(req, req.url!.startsWith('/op/') ? `graphql ${req.url!.slice(4)}` : '/things/:id');
    res.writeHead(req.url === '/things/missing' ? 404 : 200);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const metrics = async () => (await fetch(`${base}/metrics`)).text();

test('requests are counted and timed by component, route, method and status', async () => {
  await fetch(`${base}/things/1`);
  await fetch(`${base}/things/missing`);
  const text = await metrics();
  expect(text).toMatch(/^http_requests_total\{component="unit",route="\/things\/:id",method="GET",status="200"\} 1$/m);
  expect(text).toMatch(/^http_requests_total\{component="unit",route="\/things\/:id",method="GET",status="404"\} 1$/m);
  expect(text).toMatch(/^http_request_duration_seconds_count\{component="unit",route="\/things\/:id",method="GET",status="200"\} 1$/m);
});

test('client-chosen operation names stop becoming labels past the bound', async () => {
  for (let i = 0; i < 320; i++) await fetch(`${base}/op/Op${i}`);
  const text = await metrics();
  const routes = new Set([...text.matchAll(/^http_requests_total\{component="unit",route="([^"]+)"/gm)].map((m) => m[1]));
  expect(routes.size).toBeLessThanOrEqual(301);
  expect(routes.has('other')).toBe(true);
});

test('pools and job queues are read when scraped, and gone once untracked', async () => {
  const pool = { totalCount: 3, idleCount: 1, waitingCount: 2, options: { max: 10 } };
  const untrackPool = trackPool('unitpool', pool);
  let reads = 0;
  const untrackQueue = trackJobQueue('unitq', async () => {
    reads++;
    return [{ kind: 'unit.kind', queued: 5, running: 1, lagSeconds: 2.5 }];
  });
  const text = await registry.metrics();
  expect(text).toContain('db_pool_connections{pool="unitpool",state="waiting"} 2');
  expect(text).toContain('db_pool_connections{pool="unitpool",state="max"} 10');
  expect(text).toContain('jobs_queue_depth{queue="unitq",kind="unit.kind",status="queued"} 5');
  expect(text).toContain('jobs_queue_lag_seconds{queue="unitq",kind="unit.kind"} 2.5');
  expect(reads).toBe(1); // one read serves both gauges of a scrape
  untrackPool();
  untrackQueue();
  const after = await registry.metrics();
  expect(after).not.toContain('unitpool');
  expect(after).not.toContain('unitq');
});

test('METRICS_TOKEN: a bearer token is required when set', async () => {
  token = 'scrape-secret';
  try {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-secret' } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } })).status).toBe(200);
  } finally {
    token = undefined;
  }
});
