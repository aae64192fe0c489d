// The webhook outbox (lib/webhooks) on a scratch database migrated like the platform subgraph's:
// a delivery and the job that sends it are written in the caller's transaction (a rolled-back one
// writes neither); endpoint event matching; and delivery run as jobs by a real job worker against
// a local receiver: signed, retried with backoff until it answers, dead-lettered after max attempts
// or at once for a refused (private) target or 410 Gone, every attempt in the delivery log.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SecretBox } from '../../lib/crypto.js';
import { createOrm, migrate } from '../../lib/db.js';
import { findJob, JobWorker } from '../../lib/jobs/index.js';
import { createLogger } from '../../lib/logger.js';
import {
  deliveryJobKind,
  emitToEndpoints,
  enqueueDelivery,
  listDeliveries,
  toSql,
  verifyWebhook,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  type TargetDelivery,
} from '../../lib/webhooks/index.js';
import { endpointSecretAad } from '../../lib/webhooks/webhook.entities.js';
import { platform } from '../../subgraphs/platform/index.js';
import { scratchDatabase } from '../harness/scratch-db.js';

const secrets = new SecretBox(Buffer.alloc(32, 7));
const SCHEMA = 'platform';
const log = createLogger({ test: 'outbox' }, 'silent');
let orm: MikroORM;
let dbUrl: string;
const scratch = scratchDatabase('outbox');

beforeAll(async () => {
  await scratch.create();
  dbUrl = scratch.url();
  orm = await createOrm({ url: dbUrl, schema: platform.dbSchema, entities: platform.entities, migrations: platform.migrations, filters: platform.filters });
  await migrate(orm, platform.dbSchema);
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await scratch.drop();
});

const row = (id: string) => orm.em.fork().findOneOrFail(WebhookDeliveryEntity, id);
const enqueue = (d: Omit<TargetDelivery, 'event' | 'target'> & Partial<TargetDelivery>, maxAttempts = 3) =>
  orm.em.fork().transactional((em) => enqueueDelivery(em, { schema: SCHEMA, maxAttempts, secrets }, { event: 'key.created', target: 'app:x', ...d }));

test('a delivery and its job are written in the caller transaction; a rolled-back one writes neither (EntityManager and pg client)', async () => {
  const id = await enqueue({ owner: 'acct_tx', url: 'https://example.com/hook', secret: 'whsec_x', payload: { n: 1 } });
  const d = await row(id);
  expect(d).toMatchObject({ owner: 'acct_tx', status: 'pending', attempts: 0, maxAttempts: 3, jobId: expect.any(String) });
  expect(await findJob(orm.em.fork(), SCHEMA, d.jobId!)).toMatchObject({ kind: 'webhooks.deliver', status: 'queued', payload: { deliveryId: id }, maxAttempts: 3 });

  await orm.em.fork().persist(orm.em.fork().create(WebhookEndpointEntity, { owner: 'app:rollback:live', url: 'https://example.com/a', events: ['*'], secretSealed: 'x' })).flush();
  await expect(
    orm.em.fork().transactional(async (em) => {
      expect(await emitToEndpoints(em, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:rollback:live', event: 'index.created', payload: {} })).toBe(1);
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('begin');
    expect(await emitToEndpoints(client, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:rollback:live', event: 'index.created', payload: {} })).toBe(1);
    await client.query('rollback');
  } finally {
    await client.end();
  }
  expect(await orm.em.fork().count(WebhookDeliveryEntity, { owner: 'app:rollback:live' })).toBe(0);
  const jobs = await toSql(orm.em.fork())(`select count(*)::int as n from "platform"."jobs" where payload->>'deliveryId' not in (select id from "platform"."webhook_deliveries")`);
  expect(jobs[0].n).toBe(0);
});

test('endpoints receive the events they name, their family pattern or *, of their owner only', async () => {
  const em = orm.em.fork();
  const mk = (owner: string, events: string[], active = true) => em.create(WebhookEndpointEntity, { owner, url: 'https://example.com/h', events, secretSealed: 'x', active });
  const exact = mk('app:m:live', ['index.created']);
  const family = mk('app:m:live', ['index.*']);
  const all = mk('app:m:live', ['*']);
  mk('app:m:live', ['index.deleted']);
  mk('app:m:live', ['*'], false);
  mk('app:other:live', ['*']);
  await em.flush();
  const n = await orm.em.fork().transactional((tx) => emitToEndpoints(tx, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:m:live', event: 'index.created', payload: { event: 'index.created' } }));
  expect(n).toBe(3);
  const rows = await orm.em.fork().find(WebhookDeliveryEntity, { owner: 'app:m:live' });
  expect(new Set(rows.map((r) => r.endpointId))).toEqual(new Set([exact.id, family.id, all.id]));
  expect(rows.every((r) => r.eventId === r.id && r.body === '{"event":"index.created"}' && r.jobId)).toBe(true);
});

describe('delivery as jobs', () => {
  let server: Server;
  let url: string;
  const got: { headers: IncomingHttpHeaders; body: string; path: string }[] = [];
  /** status per path: a list is consumed one answer per request, the last one repeating */
  const answers = new Map<string, number[]>();
  let worker: JobWorker;
  let privateWorker: JobWorker;

  beforeAll(async () => {
    // earlier tests left deliveries to example.com; they are not this block's business
    await toSql(orm.em.fork())(`update "platform"."jobs" set status = 'canceled'`);
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString(), path });
        const list = answers.get(path) ?? [204];
        const status = list.length > 1 ? list.shift()! : list[0];
        res.writeHead(status).end(status === 204 ? undefined : 'nope');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const kind = (allowPrivate: boolean) =>
      deliveryJobKind({ schema: SCHEMA, secrets, allowPrivate, userAgent: 'supergraph-test-webhooks/1', retryBaseMs: 100, timeoutMs: 2000, sql: toSql(orm.em.fork()), log });
    worker = new JobWorker({ schema: SCHEMA, kinds: [kind(true)], dbUrl, log, pollMs: 50 });
    await worker.start();
    // the worker that refuses private targets runs only in the last test, after the first one stopped
    privateWorker = new JobWorker({ schema: SCHEMA, kinds: [kind(false)], dbUrl, log, pollMs: 50 });
  });
  afterAll(async () => {
    await worker.stop();
    await privateWorker.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function settled(id: string, timeoutMs = 8000): Promise<WebhookDeliveryEntity> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const d = await row(id);
      if (d.status === 'delivered' || d.status === 'failed') return d;
      if (Date.now() > deadline) throw new Error(`delivery ${id} still ${d.status} after ${d.attempts} attempts`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test('an endpoint delivery is signed with the endpoint secret, carries the documented headers, and is logged', async () => {
    const em = orm.em.fork();
    const hook = em.create(WebhookEndpointEntity, { owner: 'app:send:live', url: `${url}/endpoint`, events: ['index.created'], secretSealed: '' });
    hook.secretSealed = secrets.seal('endpoint-secret-0123', endpointSecretAad(hook.id));
    await em.flush();
    await orm.em.fork().transactional((tx) => emitToEndpoints(tx, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:send:live', event: 'index.created', payload: { event: 'index.created', data: { n: 1 } } }));
    const [d] = await orm.em.fork().find(WebhookDeliveryEntity, { owner: 'app:send:live' });
    expect((await settled(d.id)).status).toBe('delivered');
    const hit = got.find((g) => g.path === '/endpoint')!;
    expect(hit.body).toBe('{"event":"index.created","data":{"n":1}}');
    expect(verifyWebhook('endpoint-secret-0123', hit.body, hit.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(hit.headers).toMatchObject({ 'x-webhook-id': d.id, 'x-webhook-delivery': d.id, 'x-webhook-event': 'index.created', 'x-webhook-attempt': '1', 'user-agent': 'supergraph-test-webhooks/1' });
    const [entry] = await listDeliveries(orm.em.fork(), { owner: 'app:send:live', endpointId: hook.id, limit: 5 });
    expect(entry.delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
    expect([entry.attempts.map((a) => a.statusCode), entry.nextAttemptAt]).toEqual([[204], null]);
    expect(await findJob(orm.em.fork(), SCHEMA, d.jobId!)).toMatchObject({ status: 'succeeded' });
  });

  test('a failing receiver is retried with backoff until it answers; every attempt is logged', async () => {
    answers.set('/flaky', [500, 503, 204]);
    const id = await enqueue({ owner: 'acct_retry', url: `${url}/flaky`, secret: 'whsec_r', payload: { n: 2 } }, 5);
    const d = await settled(id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204, lastError: null });
    const hits = got.filter((g) => g.path === '/flaky');
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(hits.map((h) => h.headers['x-webhook-id'])).size).toBe(1);
    const [entry] = await listDeliveries(orm.em.fork(), { owner: 'acct_retry', limit: 5 });
    expect(entry.attempts.map((a) => a.statusCode)).toEqual([500, 503, 204]);
    const at = entry.attempts.map((a) => a.createdAt.getTime());
    expect(at[2] - at[1]).toBeGreaterThan(at[1] - at[0]); // 100 ms, then 200 ms (±20 %)
  });

  test('after max attempts the delivery is dead-lettered: failed in the log, dead in the queue', async () => {
    answers.set('/down', [500]);
    const id = await enqueue({ owner: 'acct_dead', url: `${url}/down`, secret: null, target: 'team_chat', payload: { text: 'hi' } }, 2);
    const d = await settled(id);
    expect(d).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 500 });
    expect(got.filter((g) => g.path === '/down').every((g) => g.headers['x-webhook-signature'] === undefined)).toBe(true);
    expect(await findJob(orm.em.fork(), SCHEMA, d.jobId!)).toMatchObject({ status: 'dead', attempts: 2 });
  });

  test('410 Gone is final at once', async () => {
    answers.set('/gone', [410]);
    const d = await settled(await enqueue({ owner: 'acct_gone', url: `${url}/gone`, secret: 'whsec_g', payload: {} }, 5));
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
  });

  test('without ALLOW_PRIVATE_NETWORK_FETCH a loopback target is refused for good and never contacted; a sealed body stays sealed', async () => {
    await worker.stop();
    await privateWorker.start();
    try {
      const before = got.length;
      const id = await enqueue({ owner: 'acct_priv', url: `${url}/private`, secret: 'whsec_p', payload: { code: 'ABCD-EFGH' }, sealBody: true }, 5);
      const stored = await row(id);
      expect(stored.body).not.toContain('ABCD');
      expect(stored.secretSealed).not.toContain('whsec_p');
      const d = await settled(id);
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringMatching(/loopback/) });
      expect(got.length).toBe(before);
      const [entry] = await listDeliveries(orm.em.fork(), { owner: 'acct_priv', limit: 5 });
      expect(entry.body).toBeNull();
    } finally {
      await privateWorker.stop();
    }
  });
});
