// Webhook targets that hang or fail (docs/operations.md, "Faults"): a search process of its own
// (its own database, so no other sender takes its jobs), with the retry schedule compressed by
// configuration (timeout 300 ms, first retry 200 ms doubling, 6 attempts), sends every event to three
// local targets: one that accepts and never answers, one that sends its headers and then trickles
// its body for ever, and one that answers 500. Each attempt is cut at the timeout, retries back off,
// every delivery ends `failed` after its attempts (the dead letter), no connection stays open, and
// the sender's heap after several rounds is where it was after the first.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { keyContext, searchProcesses, subgraphGql, withDb, sleep } from './search.helpers.js';
import { uniq } from '../harness/client.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 640;
const TIMEOUT_MS = 300;
const BACKOFF_MS = 200;
const ATTEMPTS = 6;
const ROUNDS = 4;
const EVENTS_PER_ROUND = 8;
const procs = searchProcesses('faults_webhooks');

/** A raw TCP target, so a hang is a real hang (node:http would time requests out itself). */
interface Target {
  url: string;
  open: Set<Socket>;
  requests: number;
  close(): Promise<void>;
}

async function target(kind: 'hang' | 'trickle' | 'fail'): Promise<Target> {
  const open = new Set<Socket>();
  const t = { open, requests: 0 } as Target;
  const server: Server = createServer((s) => {
    open.add(s);
    let timer: NodeJS.Timeout | undefined;
    s.on('close', () => {
      open.delete(s);
      clearInterval(timer);
    });
    s.on('error', () => undefined);
    let seen = '';
    s.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      seen = '';
      t.requests++;
      if (kind === 'fail') s.write('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 9\r\n\r\ntry later');
      if (kind === 'trickle') {
        s.write('HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n');
        timer = setInterval(() => s.write('x'), 50);
      }
      // hang: read everything, answer nothing
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  t.close = async () => {
    for (const s of open) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return t;
}

let targets: Record<'hang' | 'trickle' | 'fail', Target>;
beforeAll(async () => {
  await procs.setUp();
  targets = { hang: await target('hang'), trickle: await target('trickle'), fail: await target('fail') };
}, 30_000);
afterAll(async () => {
  await procs.tearDown();
  await Promise.all(Object.values(targets ?? {}).map((t) => t.close()));
}, 60_000);

async function heapUsed(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m.exec(text)?.[1]);
}

test('hanging, trickling and failing targets: attempts cut at the timeout, retried with backoff, dead-lettered, no socket or heap growth', async () => {
  const port = BASE;
  const { url } = await procs.start(`faults-webhooks`, port, {
    ALLOW_PRIVATE_NETWORK_FETCH: '1',
    SEARCH_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    SEARCH_WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
    SEARCH_WEBHOOK_MAX_ATTEMPTS: String(ATTEMPTS),
  });
  const ctx = keyContext();
  for (const t of Object.values(targets)) {
    const r = await subgraphGql(url, ctx, 'mutation($i: RegisterWebhookInput!) { registerSearchWebhook(input: $i) { id } }', {
      i: { url: t.url, events: ['index.created'], secret: 'whsec_faults_0123456789' },
    });
    expect(r.errors).toBeUndefined();
  }

  const db = procs.dbUrl();
  const unfinished = () =>
    withDb(db, async (c) => Number((await c.query(`select count(*) from search.webhook_deliveries where status not in ('failed', 'delivered')`)).rows[0].count));
  const heaps: number[] = [];
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < EVENTS_PER_ROUND; i++) {
      const r = await subgraphGql(url, ctx, 'mutation($i: CreateIndexInput!) { createIndex(input: $i) { uid } }', { i: { uid: uniq('hook_') } });
      expect(r.errors).toBeUndefined();
    }
    // every delivery of the round gets all its attempts, then is dead-lettered
    const deadline = Date.now() + 90_000;
    await sleep(500);
    while ((await unfinished()) > 0 || (await withDb(db, async (c) => Number((await c.query('select count(*) from search.webhook_deliveries')).rows[0].count))) < (round + 1) * EVENTS_PER_ROUND * 3) {
      if (Date.now() > deadline) throw new Error(`round ${round}: deliveries still unfinished after 90 s`);
      await sleep(250);
    }
    heaps.push(await heapUsed(port));
  }
  const elapsed = Date.now() - started;

  const deliveries = await withDb(db, (c) => c.query(`select status, attempts, count(*)::int as n from search.webhook_deliveries group by 1, 2`));
  expect(deliveries.rows).toEqual([{ status: 'failed', attempts: ATTEMPTS, n: ROUNDS * EVENTS_PER_ROUND * 3 }]);
  // each attempt bounded by the timeout (plus scheduling slack on a busy machine)
  const slowest = await withDb(db, async (c) => Number((await c.query('select max(duration_ms) as m from search.webhook_attempts')).rows[0].m));
  expect(slowest).toBeLessThan(TIMEOUT_MS + 1500);
  // the gaps between one delivery's attempts grow (backoff): compare the first gap with the last, on average
  const gaps = await withDb(db, async (c) =>
    (
      await c.query(`select attempt, avg(gap_ms)::float as gap from (
         select attempt, extract(epoch from created_at - lag(created_at) over (partition by delivery_id order by attempt)) * 1000 - duration_ms as gap_ms
           from search.webhook_attempts) g where gap_ms is not null group by attempt order by attempt`)
    ).rows.map((r) => Number(r.gap)),
  );
  expect(gaps[gaps.length - 1]).toBeGreaterThan(gaps[0]!);
  // the targets got every attempt; the sender closed every connection it opened
  for (const [kind, t] of Object.entries(targets)) expect([kind, t.requests]).toEqual([kind, ROUNDS * EVENTS_PER_ROUND * ATTEMPTS]);
  await sleep(200);
  expect(Object.values(targets).map((t) => t.open.size)).toEqual([0, 0, 0]);
  // heap after the last round within 25 MB of the first (a leak of the attempts would grow every round)
  const mb = heaps.map((h) => (h / 1048576).toFixed(1));
  console.log(
    `webhook faults: ${ROUNDS * EVENTS_PER_ROUND * 3} deliveries × ${ATTEMPTS} attempts in ${(elapsed / 1000).toFixed(1)} s; slowest attempt ${slowest} ms (timeout ${TIMEOUT_MS}); mean gap before attempt 2..${ATTEMPTS}: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms; heap used after each round ${mb.join(', ')} MB`,
  );
  expect(heaps[heaps.length - 1]! - heaps[0]!).toBeLessThan(25 * 1048576);
}, 420_000);
