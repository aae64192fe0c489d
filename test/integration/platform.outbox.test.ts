// The webhook outbox (lib/webhooks) on a scratch database migrated like the platform subgraph's,
// with no sender running: concurrent claimers never share a row; failed attempts go back to
// pending with a later next_attempt_at until max_attempts, then dead-letter; a lapsed lease frees a
// row; deliveries written in a rolled-back transaction do not exist; endpoint event matching; and
// a real send to a local receiver, signed, with the attempt logged.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SecretBox } from '../../lib/crypto.js';
import { createOrm, migrate } from '../../lib/db.js';
import {
  claimDue,
  emitToEndpoints,
  enqueueDelivery,
  listDeliveries,
  recordAttempt,
  send,
  toSql,
  verifyWebhook,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  type Sql,
} from '../../lib/webhooks/index.js';
import { endpointSecretAad } from '../../lib/webhooks/webhook.entities.js';
import { platform } from '../../subgraphs/platform/index.js';
import { stackDatabaseUrl } from '../harness/db.js';

const name = `outbox_${process.pid}_${Date.now()}`;
const adminUrl = () => stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, '/postgres$1');
const secrets = new SecretBox(Buffer.alloc(32, 7));
const SCHEMA = 'platform';
let orm: MikroORM;
let sql: Sql;

async function admin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`create database ${name}`);
  const url = stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);
  orm = await createOrm({ url, schema: platform.dbSchema, entities: platform.entities, migrations: platform.migrations, filters: platform.filters });
  await migrate(orm, platform.dbSchema);
  sql = toSql(orm.em.fork());
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await admin(`drop database if exists ${name} with (force)`);
});

async function addDeliveries(n: number, maxAttempts = 3, url = 'https://example.com/hook'): Promise<string[]> {
  const ids: string[] = [];
  await orm.em.fork().transactional(async (em) => {
    for (let i = 0; i < n; i++) {
      ids.push(await enqueueDelivery(em, { schema: SCHEMA, maxAttempts, secrets }, { owner: 'acct_a', event: 'key.created', target: 'app:x', url, secret: 'whsec_x', payload: { i } }));
    }
  });
  return ids;
}
const row = (id: string) => orm.em.fork().findOneOrFail(WebhookDeliveryEntity, id);

test('concurrent claimers never claim the same row, and together claim them all', async () => {
  const ids = await addDeliveries(60);
  const claimed: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const mine = toSql(orm.em.fork());
      for (;;) {
        const batch = await claimDue(mine, SCHEMA, 7, 60_000);
        if (!batch.length) return;
        claimed.push(...batch.map((b) => b.id));
        expect(batch.every((b) => b.attempts === 1 && b.event === 'key.created' && b.urlSealed !== null)).toBe(true);
      }
    }),
  );
  expect(new Set(claimed).size).toBe(claimed.length);
  expect(new Set(claimed)).toEqual(new Set(ids));
  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id: { $in: ids } }, { status: 'delivered' });
});

test('a failure goes back to pending for later; at max_attempts it is dead-lettered; permanent fails at once', async () => {
  const [id, permanent] = await addDeliveries(2, 2);
  const claimed = await claimDue(sql, SCHEMA, 10, 60_000);
  expect(claimed.map((c) => c.id).sort()).toEqual([id, permanent].sort());
  const byId = new Map(claimed.map((c) => [c.id, c]));
  const cfg = { schema: SCHEMA, retryBaseMs: 60_000, jitter: 0 };
  expect(await recordAttempt(sql, cfg, byId.get(permanent)!, { error: 'refused', permanent: true, durationMs: 1 })).toBe('failed');
  expect(await recordAttempt(sql, cfg, byId.get(id)!, { status: 500, error: 'HTTP 500', permanent: false, durationMs: 1 })).toBe('pending');
  const r = await row(id);
  expect(r).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
  expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  expect((await row(permanent)).status).toBe('failed');
  expect(await claimDue(sql, SCHEMA, 10, 60_000)).toEqual([]); // not due yet

  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id }, { nextAttemptAt: new Date(Date.now() - 1000) });
  const again = await claimDue(sql, SCHEMA, 10, 60_000);
  expect(again.map((c) => [c.id, c.attempts])).toEqual([[id, 2]]);
  expect(await recordAttempt(sql, cfg, again[0], { status: 503, error: 'HTTP 503', permanent: false, durationMs: 1 })).toBe('failed');
  const log = await listDeliveries(orm.em.fork(), { owner: 'acct_a', limit: 200 });
  const entry = log.find((e) => e.delivery.id === id)!;
  expect(entry.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
    [1, 500],
    [2, 503],
  ]);
  expect([entry.delivery.status, entry.nextAttemptAt]).toEqual(['failed', null]);
});

test('a claim whose lease lapsed (the sender died mid-POST) is claimed again', async () => {
  const [id] = await addDeliveries(1);
  expect((await claimDue(sql, SCHEMA, 10, 60_000)).map((c) => c.id)).toEqual([id]);
  expect(await claimDue(sql, SCHEMA, 10, 60_000)).toEqual([]); // leased
  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id }, { leaseUntil: new Date(Date.now() - 1000) });
  const re = await claimDue(sql, SCHEMA, 10, 60_000);
  expect(re.map((c) => [c.id, c.attempts])).toEqual([[id, 2]]);
  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id }, { status: 'delivered' });
});

test('deliveries written in a rolled-back transaction do not exist (pg client and EntityManager alike)', async () => {
  const endpoint = orm.em.fork().create(WebhookEndpointEntity, { owner: 'app:rollback:live', url: 'https://example.com/a', events: ['*'], secretSealed: 'x' });
  await orm.em.fork().persist(endpoint).flush();
  await expect(
    orm.em.fork().transactional(async (em) => {
      expect(await emitToEndpoints(em, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:rollback:live', event: 'index.created', payload: {} })).toBe(1);
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  const client = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('begin');
    expect(await emitToEndpoints(client, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:rollback:live', event: 'index.created', payload: {} })).toBe(1);
    await client.query('rollback');
  } finally {
    await client.end();
  }
  expect(await orm.em.fork().count(WebhookDeliveryEntity, { owner: 'app:rollback:live' })).toBe(0);
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
  const n = await emitToEndpoints(sql, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:m:live', event: 'index.created', payload: { event: 'index.created' } });
  expect(n).toBe(3);
  const rows = await orm.em.fork().find(WebhookDeliveryEntity, { owner: 'app:m:live' });
  expect(new Set(rows.map((r) => r.endpointId))).toEqual(new Set([exact.id, family.id, all.id]));
  expect(rows.every((r) => r.eventId === r.id && r.body === '{"event":"index.created"}')).toBe(true);
  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { owner: 'app:m:live' }, { status: 'delivered' });
});

describe('sending', () => {
  let server: Server;
  let url: string;
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  let answer = 204;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(answer).end(answer === 204 ? undefined : 'nope');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const cfg = (allowPrivate: boolean) => ({ schema: SCHEMA, secrets, allowPrivate, userAgent: 'supergraph-test-webhooks/1', retryBaseMs: 10, jitter: 0 });

  test('an endpoint delivery is signed with the endpoint secret, carries the documented headers, and is logged', async () => {
    const em = orm.em.fork();
    const hook = em.create(WebhookEndpointEntity, { owner: 'app:send:live', url, events: ['index.created'], secretSealed: '' });
    hook.secretSealed = secrets.seal('endpoint-secret-0123', endpointSecretAad(hook.id));
    await em.flush();
    await emitToEndpoints(sql, { schema: SCHEMA, maxAttempts: 3 }, { owner: 'app:send:live', event: 'index.created', payload: { event: 'index.created', data: { n: 1 } } });
    const [claimed] = await claimDue(sql, SCHEMA, 10, 60_000);
    const r = await send(cfg(true), claimed);
    expect(r).toMatchObject({ status: 204, permanent: false });
    expect(await recordAttempt(sql, cfg(true), claimed, r)).toBe('delivered');
    const hit = got.at(-1)!;
    expect(hit.body).toBe('{"event":"index.created","data":{"n":1}}');
    expect(verifyWebhook('endpoint-secret-0123', hit.body, hit.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(hit.headers).toMatchObject({ 'x-webhook-id': claimed.id, 'x-webhook-delivery': claimed.id, 'x-webhook-event': 'index.created', 'x-webhook-attempt': '1', 'user-agent': 'supergraph-test-webhooks/1' });
    const [entry] = await listDeliveries(orm.em.fork(), { owner: 'app:send:live', endpointId: hook.id, limit: 5 });
    expect(entry.delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
    expect(entry.attempts.map((a) => a.statusCode)).toEqual([204]);
  });

  test('a sealed body and a per-delivery secret; a loopback target without ALLOW_PRIVATE_NETWORK_FETCH is dead-lettered at once', async () => {
    const id = await enqueueDelivery(sql, { schema: SCHEMA, maxAttempts: 5, secrets }, { owner: 'acct_s', event: 'data_transfer.access_requested', eventId: 'evt_1', target: 'app:y', url, secret: 'whsec_y', payload: { code: 'ABCD-EFGH' }, sealBody: true });
    const stored = await row(id);
    expect(stored.body).not.toContain('ABCD');
    expect(stored.secretSealed).not.toContain('whsec_y');
    const [claimed] = await claimDue(sql, SCHEMA, 10, 60_000);
    const before = got.length;
    const r = await send(cfg(false), claimed);
    expect(r).toMatchObject({ permanent: true, error: expect.stringMatching(/loopback/) });
    expect(got.length).toBe(before);
    expect(await recordAttempt(sql, cfg(false), claimed, r)).toBe('failed');
    const [entry] = await listDeliveries(orm.em.fork(), { owner: 'acct_s', limit: 5 });
    expect(entry.body).toBeNull();
    expect(entry.delivery.lastError).toMatch(/loopback/);
  });

  test('a non-2xx answer is retried; 410 Gone is final', async () => {
    await enqueueDelivery(sql, { schema: SCHEMA, maxAttempts: 5, secrets }, { owner: 'acct_r', event: 'key.created', target: 'team_chat', url, secret: null, payload: { text: 'hi' } });
    answer = 500;
    let [claimed] = await claimDue(sql, SCHEMA, 10, 60_000);
    expect(await recordAttempt(sql, cfg(true), claimed, await send(cfg(true), claimed))).toBe('pending');
    expect(got.at(-1)!.headers['x-webhook-signature']).toBeUndefined();
    await new Promise((r) => setTimeout(r, 30));
    answer = 410;
    [claimed] = await claimDue(sql, SCHEMA, 10, 60_000);
    expect(claimed.attempts).toBe(2);
    expect(await recordAttempt(sql, cfg(true), claimed, await send(cfg(true), claimed))).toBe('failed');
    answer = 204;
  });
});
