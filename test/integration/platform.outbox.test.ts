// The delivery worker's claim SQL on a scratch database of its own (migrated like the platform
// subgraph's, but with no worker running): concurrent claimers never share a row, failed attempts
// go back to pending with a later next_attempt_at until max_attempts, and a lapsed lease frees a row.
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../../lib/db.js';
import { platform } from '../../subgraphs/platform/index.js';
import { AccountEntity } from '../../subgraphs/platform/accounts/account.entity.js';
import { PlatformEntity } from '../../subgraphs/platform/platforms/platform.entity.js';
import { AccountEventEntity } from '../../subgraphs/platform/notifications/account-event.entity.js';
import { WebhookDeliveryEntity } from '../../subgraphs/platform/notifications/webhook-delivery.entity.js';
import { claimDue, markDelivered, markFailed } from '../../subgraphs/platform/notifications/delivery.repository.js';
import { stackDatabaseUrl } from '../harness/db.js';

const name = `outbox_${process.pid}_${Date.now()}`;
const adminUrl = () => stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, '/postgres$1');
let orm: MikroORM;
let accountId: string;
let platformId: string;
let eventId: string;

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`create database ${name}`);
  const url = stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);
  orm = await createOrm({ url, schema: platform.dbSchema, entities: platform.entities, migrations: platform.migrations, filters: platform.filters });
  await migrate(orm, platform.dbSchema);
  const em = orm.em.fork();
  const p = em.create(PlatformEntity, { code: 'outbox', urlId: 'outbox', name: 'Outbox', schemaName: 'outbox' });
  const a = em.create(AccountEntity, { platform: p, name: 'A', code: 'a', urlId: 'a' });
  const e = em.create(AccountEventEntity, {
    platform: p,
    account: a,
    event: 'key.created',
    summary: 'A: key created',
    payload: { id: 'evt_x', event: 'key.created', occurredAt: new Date().toISOString(), platformId: p.id, accountId: a.id, data: {} },
  });
  await em.flush();
  accountId = a.id;
  platformId = p.id;
  eventId = e.id;
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await admin(`drop database if exists ${name} with (force)`);
});

async function addDeliveries(n: number, maxAttempts = 3): Promise<string[]> {
  const em = orm.em.fork();
  const rows = Array.from({ length: n }, () =>
    em.create(WebhookDeliveryEntity, {
      platform: em.getReference(PlatformEntity, platformId),
      account: em.getReference(AccountEntity, accountId),
      event: em.getReference(AccountEventEntity, eventId),
      targetKind: 'app',
      url: 'https://example.com/hook',
      urlSealed: 'sealed',
      maxAttempts,
    }),
  );
  await em.flush();
  return rows.map((r) => r.id);
}

test('concurrent claimers never claim the same row, and together claim them all', async () => {
  const ids = await addDeliveries(60);
  const claimed: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (;;) {
        const batch = await claimDue(orm.em.fork(), 7);
        if (!batch.length) return;
        claimed.push(...batch.map((b) => b.id));
        expect(batch.every((b) => b.attempts === 1 && b.payload.event === 'key.created' && b.summary === 'A: key created')).toBe(true);
      }
    }),
  );
  expect(new Set(claimed).size).toBe(claimed.length);
  expect(new Set(claimed)).toEqual(new Set(ids));
  for (const id of ids) await markDelivered(orm.em.fork(), id, 200);
});

test('a failure goes back to pending for later; at max_attempts it fails for good; permanent fails at once', async () => {
  const [id, permanent] = await addDeliveries(2, 2);
  const em = orm.em.fork();
  expect((await claimDue(em, 10)).map((c) => c.id).sort()).toEqual([id, permanent].sort());
  await markFailed(em, permanent, { error: 'refused', permanent: true, retryInMs: 0 });
  await markFailed(em, id, { status: 500, error: 'HTTP 500', permanent: false, retryInMs: 60_000 });
  const row = await orm.em.fork().findOneOrFail(WebhookDeliveryEntity, id, { filters: false });
  expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
  expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  expect((await orm.em.fork().findOneOrFail(WebhookDeliveryEntity, permanent, { filters: false })).status).toBe('failed');
  expect(await claimDue(orm.em.fork(), 10)).toEqual([]); // not due yet

  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id }, { nextAttemptAt: new Date(Date.now() - 1000) }, { filters: false });
  const again = await claimDue(orm.em.fork(), 10);
  expect(again.map((c) => [c.id, c.attempts])).toEqual([[id, 2]]);
  await markFailed(orm.em.fork(), id, { status: 503, error: 'HTTP 503', permanent: false, retryInMs: 0 });
  expect((await orm.em.fork().findOneOrFail(WebhookDeliveryEntity, id, { filters: false })).status).toBe('failed');
});

test('a claim whose lease lapsed (the worker died mid-POST) is claimed again', async () => {
  const [id] = await addDeliveries(1);
  expect((await claimDue(orm.em.fork(), 10)).map((c) => c.id)).toEqual([id]);
  expect(await claimDue(orm.em.fork(), 10)).toEqual([]); // leased
  await orm.em.fork().nativeUpdate(WebhookDeliveryEntity, { id }, { lockedUntil: new Date(Date.now() - 1000) }, { filters: false });
  const re = await claimDue(orm.em.fork(), 10);
  expect(re.map((c) => [c.id, c.attempts])).toEqual([[id, 2]]);
});
