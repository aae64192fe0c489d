// `npm start` with START_PROCESSES=split (scripts/stack-processes.ts): each subgraph, the gateway and
// the REST bridge in a process of its own, sharing events over Redis. A client's path crosses all of
// them (bridge → gateway → platform for the key, → catalog for the product), and SIGTERM to the
// parent stops every child: each child answers not-ready at once and keeps serving for the parent's
// SHUTDOWN_DELAY_MS (a balancer in front of the children takes them out during the same delay). Needs REDIS_URL (split refuses to start without it).
import { readFileSync } from 'node:fs';
import { mintToken, stack, uniq } from '../harness/client.js';
import { scratchDatabase } from '../harness/scratch-db.js';
import { spawnScript, stackPortEnv, stop, waitFor } from '../harness/spawn.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('start-split.test: REDIS_URL is not set; the split start is skipped');

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 680;
const REST = `http://127.0.0.1:${BASE + 5}`;
const db = scratchDatabase('split');

/** A JSON:API POST to the split stack's bridge; the created resource's data. */
async function post(path: string, headers: Record<string, string>, type: string, attributes: Record<string, unknown>): Promise<{ id: string; attributes: Record<string, any> }> {
  const r = await fetch(`${REST}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ data: { type, attributes } }) });
  const body = (await r.json()) as any;
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** The pids of `pid`'s children, from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

maybe('npm start, one process per service', () => {
  beforeAll(() => db.create(), 30_000);
  afterAll(() => db.drop(), 30_000);

  test('a REST call crosses the bridge, gateway, platform and catalog processes; SIGTERM stops them all', async () => {
    const child = spawnScript(
      'scripts/start-all.ts',
      {
        START_PROCESSES: 'split',
        DATABASE_URL: db.url(),
        REDIS_URL,
        ...stackPortEnv(BASE),
        JWT_SECRET: stack().env.JWT_SECRET,
        INTERNAL_SECRET: stack().env.INTERNAL_SECRET,
        LOG_LEVEL: 'warn',
        SHUTDOWN_DELAY_MS: '2000',
      },
      'start-split',
    );
    try {
      // readiness is each process's own (docs/deploy.md): the bridge and the gateway are ready before
      // the subgraphs they call, so each is waited for, as a balancer would
      for (let i = 1; i <= 4; i++) await waitFor(`http://127.0.0.1:${BASE + i}/health/ready`, 180_000, child);
      await waitFor(`${REST}/health/ready`, 180_000, child);
      await waitFor(`http://127.0.0.1:${BASE}/health/ready`, 60_000, child);
      const services = childrenOf(child.pid!);
      expect(services).toHaveLength(6); // four subgraphs, the gateway, the bridge

      const code = uniq('p');
      const ph = { authorization: `Bearer ${mintToken()}`, 'x-platform': code };
      await post('/platforms', ph, 'platforms', { code, name: code });
      const acct = await post('/accounts', ph, 'accounts', { name: code, code: uniq('a'), deployment_model: 'dedicated_cloud' });
      const app = await post(`/accounts/${acct.attributes.url_id}/apps`, ph, 'apps', { name: 'App' });
      const key = await post(`/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`, ph, 'api_keys', { name: 'k', key_type: 'secret' });
      const kh = { 'x-app-id': app.id, 'x-api-key': key.attributes.key_id as string };
      const made = await post('/v1/products', kh, 'products', { name: 'Split lamp', sku: 'SPLIT-1', price: { amount: 1299, currency: 'USD' } });
      const list = await fetch(`${REST}/v1/products?page[size]=5`, { headers: kh });
      expect(list.status).toBe(200);
      const body = (await list.json()) as any;
      expect(body.data.map((p: { id: string }) => p.id)).toEqual([made.id]);
      expect(body.data[0].attributes.name).toBe('Split lamp');

      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      // during the parent's delay: the children are not ready, and still serve
      for (const origin of [REST, `http://127.0.0.1:${BASE}`, `http://127.0.0.1:${BASE + 3}`]) {
        const ready = await fetch(`${origin}/health/ready`);
        expect([origin, ready.status]).toEqual([origin, 503]);
        expect((await ready.json()).status).toBe('draining');
      }
      expect((await fetch(`${REST}/v1/products?page[size]=5`, { headers: kh })).status).toBe(200);
      await exited;
      expect(child.exitCode).toBe(0);
      expect(services.filter(alive)).toEqual([]);
    } finally {
      await stop(child);
    }
  }, 300_000);
});
