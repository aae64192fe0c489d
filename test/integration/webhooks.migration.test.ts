// The migrations that moved search's and the platform's webhooks onto lib/webhooks and the job
// queue, run over rows written in the old shapes: search's plaintext secrets end up sealed with
// MASTER_KEY (and the plaintext column gone), and every delivery still to be sent keeps its id,
// gets its body, sealed secret and a job, due when it was due, with the attempts it had left.
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../../lib/config.js';
import { masterSecretBox } from '../../lib/crypto.js';
import { createOrm, migrate } from '../../lib/db.js';
import { findJob } from '../../lib/jobs/index.js';
import { toSql, type Sql } from '../../lib/webhooks/index.js';
import { deliveryBodyAad, deliverySecretAad, deliveryUrlAad, endpointSecretAad } from '../../lib/webhooks/webhook.entities.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { platform } from '../../subgraphs/platform/index.js';
import { search } from '../../subgraphs/search/index.js';
import { AccountEntity } from '../../subgraphs/platform/accounts/account.entity.js';
import { AppEntity } from '../../subgraphs/platform/apps/app.entity.js';
import { PlatformEntity } from '../../subgraphs/platform/platforms/platform.entity.js';
import { scratchDatabase } from '../harness/scratch-db.js';

const box = masterSecretBox(loadConfig());
const created: (() => Promise<void>)[] = [];

/** A scratch database at the migration before `firstNew`; `upgrade()` runs the rest. */
async function before(def: SubgraphDefinition<any>, firstNew: string): Promise<{ sql: Sql; orm: MikroORM; upgrade(): Promise<MikroORM> }> {
  const scratch = scratchDatabase(`whmig_${def.name}`);
  await scratch.create();
  created.push(scratch.drop);
  const url = scratch.url();
  const upTo = def.migrations.findIndex((m) => m.name === firstNew);
  const orm = await createOrm({ url, schema: def.dbSchema, entities: def.entities, migrations: def.migrations.slice(0, upTo), filters: def.filters });
  await migrate(orm, def.dbSchema);
  return {
    orm,
    sql: toSql(orm.em.fork()),
    async upgrade() {
      await orm.close();
      const next = await createOrm({ url, schema: def.dbSchema, entities: def.entities, migrations: def.migrations, filters: def.filters });
      await migrate(next, def.dbSchema);
      return next;
    },
  };
}

afterAll(async () => {
  for (const drop of created) await drop();
});

test('search: webhooks become endpoints with sealed secrets; queued deliveries get jobs', async () => {
  const db = await before(search, 'Migration20261124083000_lib_webhooks');
  const later = new Date(Date.now() + 3_600_000);
  await db.sql(`insert into "search"."webhooks" (id, app_id, environment, url, events, secret, active, created_at)
                values ('whk_old1', 'app_1', 'live', 'https://example.com/h', '["index.created"]', 'plaintext-secret-0123', true, now())`);
  await db.sql(
    `insert into "search"."webhook_deliveries" (id, app_id, environment, webhook_id, event, body, status, attempts, next_attempt_at, created_at) values
       ('whd_pending', 'app_1', 'live', 'whk_old1', 'index.created', '{"event":"index.created"}', 'pending', 1, ?, now()),
       ('whd_done', 'app_1', 'live', 'whk_old1', 'index.created', '{"event":"index.created"}', 'delivered', 1, now(), now())`,
    [later.toISOString()],
  );
  const orm = await db.upgrade();
  try {
    const sql = toSql(orm.em.fork());
    const [hook] = await sql(`select * from "search"."webhook_endpoints"`);
    expect(hook).toMatchObject({ id: 'whk_old1', owner: 'app:app_1:live', url: 'https://example.com/h', events: ['index.created'] });
    expect(hook).not.toHaveProperty('secret');
    expect(hook.secret_sealed).not.toContain('plaintext');
    expect(box.open(hook.secret_sealed, endpointSecretAad('whk_old1'))).toBe('plaintext-secret-0123');
    const rows = await sql(`select * from "search"."webhook_deliveries" order by id`);
    const done = rows.find((r) => r.id === 'whd_done')!;
    const pending = rows.find((r) => r.id === 'whd_pending')!;
    expect(done).toMatchObject({ owner: 'app:app_1:live', endpoint_id: 'whk_old1', event_id: 'whd_done', status: 'delivered', job_id: null });
    expect(pending).toMatchObject({ owner: 'app:app_1:live', endpoint_id: 'whk_old1', event_id: 'whd_pending', status: 'pending', attempts: 1, max_attempts: 8 });
    const job = await findJob<{ deliveryId: string }>(orm.em.fork(), 'search', String(pending.job_id));
    expect(job).toMatchObject({ kind: 'webhooks.deliver', status: 'queued', payload: { deliveryId: 'whd_pending' }, maxAttempts: 7 });
    expect(Math.abs(job!.runAt.getTime() - later.getTime())).toBeLessThan(1000);
  } finally {
    await orm.close();
  }
});

test('platform: queued app deliveries get their body (secret fields merged, sealed) and sealed secret; team chat stays unsigned', async () => {
  const db = await before(platform, 'Migration20261124083100_lib_webhooks');
  const s = db.sql;
  const em = db.orm.em.fork();
  const p = em.create(PlatformEntity, { code: 'p1', urlId: 'p1', name: 'P', schemaName: 'p1' });
  const account = em.create(AccountEntity, { platform: p, name: 'A', code: 'a', urlId: 'a' });
  const app = em.create(AppEntity, { platform: p, account, name: 'App', webhookUrl: 'https://example.com/app' });
  await em.flush();
  const [platformId, accountId, appId] = [p.id, account.id, app.id];
  await s(`insert into "platform"."app_webhook_secrets" (id, platform_id, app_id, secret_sealed, created_at) values ('whs_1', ?, ?, ?, now())`, [
    platformId,
    appId,
    box.seal('whsec_app', `app-webhook-secret:${appId}`),
  ]);
  const payload = { id: 'evt_1', event: 'data_transfer.access_requested', occurredAt: '2026-11-24T00:00:00.000Z', platformId, accountId, data: { transfer_id: 'dtr_1' } };
  await s(
    `insert into "platform"."account_events" (id, platform_id, account_id, event, payload, secret_sealed, summary, occurred_at)
     values ('evt_1', ?, ?, 'data_transfer.access_requested', ?::jsonb, ?, 'A: access requested', now())`,
    [platformId, accountId, JSON.stringify(payload), box.seal(JSON.stringify({ access_code: 'ABCD-EFGH' }), 'account-event:evt_1:secret-data')],
  );
  const insert = (id: string, kind: 'app' | 'team_chat', status: string, attempts: number) =>
    s(
      `insert into "platform"."webhook_deliveries" (id, platform_id, account_id, event_id, target_kind, app_id, url, url_sealed, status, attempts, max_attempts, next_attempt_at, created_at)
       values (?, ?, ?, 'evt_1', ?, ?, ?, ?, ?, ?, 8, now(), now())`,
      [id, platformId, accountId, kind, kind === 'app' ? appId : null, kind === 'app' ? 'https://example.com/app' : 'https://chat…/x', box.seal('https://example.com/target', `webhook-delivery:${id}:url`), status, attempts],
    );
  await insert('whd_app', 'app', 'pending', 2);
  await insert('whd_chat', 'team_chat', 'pending', 0);
  await insert('whd_old', 'app', 'delivered', 1);
  const orm = await db.upgrade();
  try {
    const rows = new Map((await toSql(orm.em.fork())(`select * from "platform"."webhook_deliveries"`)).map((r) => [r.id as string, r]));
    const a = rows.get('whd_app')!;
    expect(a).toMatchObject({ owner: accountId, target: `app:${appId}`, event: 'data_transfer.access_requested', event_id: 'evt_1', display_url: 'https://example.com/app', body_sealed: true, status: 'pending' });
    expect(a.body).not.toContain('ABCD');
    expect(JSON.parse(box.open(a.body, deliveryBodyAad('whd_app')))).toEqual({
      id: 'evt_1',
      event: 'data_transfer.access_requested',
      occurred_at: '2026-11-24T00:00:00.000Z',
      platform_id: platformId,
      account_id: accountId,
      data: { transfer_id: 'dtr_1', access_code: 'ABCD-EFGH' },
    });
    expect(box.open(a.secret_sealed, deliverySecretAad('whd_app'))).toBe('whsec_app');
    expect(box.open(a.url_sealed, deliveryUrlAad('whd_app'))).toBe('https://example.com/target');
    expect(await findJob(orm.em.fork(), 'platform', String(a.job_id))).toMatchObject({ kind: 'webhooks.deliver', status: 'queued', maxAttempts: 6 });
    const chat = rows.get('whd_chat')!;
    expect(chat).toMatchObject({ target: 'team_chat', secret_sealed: null, body_sealed: false, body: '{"text": "A: access requested"}' });
    expect(chat.job_id).not.toBeNull();
    expect(rows.get('whd_old')).toMatchObject({ status: 'delivered', job_id: null, secret_sealed: null });
  } finally {
    await orm.close();
  }
});
