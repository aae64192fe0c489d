// Graceful shutdown (docs/operations.md): `npm start`'s process (scripts/start-all.ts), on a database
// of its own, gets SIGTERM while requests to the gateway and the REST bridge are in flight (their
// bodies still arriving). Every one is answered (none cut, none 5xx), the process exits 0 within
// the grace period, and its log holds no error line (the servers stop before the workers, the
// workers before the pools, the pools before the database).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { request } from 'node:http';
import { ROOT, spawnScript, stackPortEnv, waitFor } from '../harness/spawn.js';
import { scratchDatabase } from '../harness/scratch-db.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 40;
const db = scratchDatabase('shutdown');

interface Outcome {
  kind: 'answered' | 'cut';
  status?: number;
  detail?: string;
}

/**
 * A request in flight when the process is told to stop: its headers and half its body go out at
 * once, the rest after `pauseMs`, so the server is still reading it when SIGTERM arrives.
 */
function slowRequest(url: string, headers: Record<string, string>, body: string, pauseMs: number): { sent: Promise<void>; outcome: Promise<Outcome> } {
  let sentResolve!: () => void;
  const sent = new Promise<void>((r) => (sentResolve = r));
  const outcome = new Promise<Outcome>((res) => {
    const bytes = Buffer.from(body);
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(bytes.length) }, agent: false }, (r) => {
      r.resume();
      r.on('end', () => res({ kind: 'answered', status: r.statusCode }));
      r.on('error', (e) => res({ kind: 'cut', detail: e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => res({ kind: 'cut', detail: `${e.code ?? ''} ${e.message}` }));
    const half = Math.floor(bytes.length / 2);
    req.write(bytes.subarray(0, half), () => sentResolve());
    setTimeout(() => req.end(bytes.subarray(half)), pauseMs);
  });
  return { sent, outcome };
}

beforeAll(() => db.create(), 30_000);
afterAll(() => db.drop(), 30_000);

test('SIGTERM with requests in flight at the bridge and the gateway: each is answered, the process exits 0 with no error logged', async () => {
  const child = spawnScript(
    'scripts/start-all.ts',
    {
      DATABASE_URL: db.url(),
      REDIS_URL: '',
      ...stackPortEnv(BASE),
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '5000',
    },
    'shutdown',
  );
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await waitFor(`http://127.0.0.1:${BASE + 5}/health/ready`, 120_000, child);
  await waitFor(`http://127.0.0.1:${BASE}/health`, 30_000, child);

  // let the stack settle (first requests compile what they need), then start the slow requests
  await fetch(`http://127.0.0.1:${BASE + 5}/health/ready`);
  const gql = JSON.stringify({ query: '{ __typename }' });
  const rest = JSON.stringify({ data: { type: 'products', attributes: { name: 'never created: no credentials' } } });
  const inFlight = [
    // the gateway's bodies finish after the bridge has drained, so they are still in flight when the gateway stops
    ...Array.from({ length: 4 }, () => slowRequest(`http://127.0.0.1:${BASE}/graphql`, { 'content-type': 'application/json' }, gql, 3000)),
    ...Array.from({ length: 4 }, () => slowRequest(`http://127.0.0.1:${BASE + 5}/v1/products`, { 'content-type': 'application/json' }, rest, 1500)),
  ];
  await Promise.all(inFlight.map((r) => r.sent));
  await new Promise((r) => setTimeout(r, 200)); // the servers have accepted them and are reading
  child.kill('SIGTERM');
  const outcomes = await Promise.all(inFlight.map((r) => r.outcome));
  const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000).unref())]);

  expect(outcomes.filter((o) => o.kind === 'cut')).toEqual([]);
  expect(outcomes.filter((o) => (o.status ?? 0) >= 500)).toEqual([]);
  expect(code).toBe(0);
  const log = readFileSync(resolve(ROOT, '.data', 'test-logs', 'shutdown.log'), 'utf8');
  expect(log).toContain('received SIGTERM, shutting down');
  expect(log.split('\n').filter((l) => /"level":"error"|\berror\b/i.test(l))).toEqual([]);
}, 180_000);
