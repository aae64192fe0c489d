// The parts of the platform service working together: account, block, access and billing changes
// reach the account-events outbox in their own transaction and leave as signed app webhooks; the
// renewal job's events do too; deleting an account ends its subscription (MRR drops, restore does
// not bring it back); engagement's block adoption counts real licenses and instances.
import { verifyWebhook } from '../../lib/webhooks/index.js';
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { acct, DAY, getSub, subscribe } from '../harness/billing.js';
import { openPlatformDb, type PlatformDb } from '../harness/platform-db.js';
import { startReceiver, type Receiver, type Received } from '../harness/webhook-receiver.js';

let db: PlatformDb;
let hooks: Receiver;

beforeAll(async () => {
  db = await openPlatformDb();
  hooks = await startReceiver();
});
afterAll(async () => {
  await hooks.close();
  await db.close();
});

/** A fresh tenant whose app has a webhook URL (one path per tenant) and a signing secret. */
async function hookedTenant(): Promise<{ t: Tenant; secret: string; path: string }> {
  const t = await createTenant();
  const path = `/hooks/${uniq('h')}`;
  const put = await rest('PUT', `${acct(t)}/apps/${t.appId}`, { headers: t.platformHeaders, body: jsonApi('apps', { webhook_url: `${hooks.url}${path}` }) });
  expect(put.status).toBe(200);
  const s = await rest('POST', `${acct(t)}/apps/${t.appId}/webhook_secret`, { headers: t.platformHeaders });
  expect(s.status).toBe(201);
  return { t, secret: s.body.data.attributes.secret, path };
}

function waitEvent(path: string, event: string, pred: (r: Received) => boolean = () => true): Promise<Received> {
  return hooks.waitFor((r) => r.path === path && r.json?.event === event && pred(r));
}

function signed(secret: string, r: Received): boolean {
  return verifyWebhook(secret, r.body, r.headers['x-webhook-signature'] as string).ok;
}

async function outboxEvents(accountId: string): Promise<string[]> {
  return (await db.sql<{ event: string }>('select event from platform.account_events where account_id = ? order by occurred_at, id', [accountId])).map((r) => r.event);
}

async function accountId(t: Tenant): Promise<string> {
  const r = await rest('GET', acct(t), { headers: t.platformHeaders });
  return r.body.data.id;
}

async function mrrOf(t: Tenant): Promise<number> {
  const r = await rest('GET', `/reporting/revenue?platform=${t.platformCode}&force_refresh=true`, { headers: t.platformHeaders });
  expect(r.status).toBe(200);
  return r.body.data.attributes.mrr_cents;
}

describe('account events from the accounts service', () => {
  test('account.created is in the outbox; an update reaches the app webhook signed, with what changed', async () => {
    const { t, secret, path } = await hookedTenant();
    const id = await accountId(t);
    expect(await outboxEvents(id)).toContain('account.created');

    const put = await rest('PUT', acct(t), { headers: t.platformHeaders, body: jsonApi('accounts', { name: 'Renamed Ltd', preferred_language: 'pt-BR' }) });
    expect(put.status).toBe(200);
    const hook = await waitEvent(path, 'account.updated');
    expect(signed(secret, hook)).toBe(true);
    expect(hook.json).toMatchObject({ account_id: id, data: { account_id: id, name: 'Renamed Ltd', preferred_language: 'pt-BR', changed: ['name', 'preferred_language'] } });

    // a PUT that changes nothing records nothing
    const before = (await outboxEvents(id)).length;
    expect((await rest('PUT', acct(t), { headers: t.platformHeaders, body: jsonApi('accounts', { name: 'Renamed Ltd' }) })).status).toBe(200);
    expect(await outboxEvents(id)).toHaveLength(before);
  });

  test('a failed update records no event (same transaction)', async () => {
    const { t } = await hookedTenant();
    const other = await rest('POST', '/accounts', { headers: t.platformHeaders, body: jsonApi('accounts', { name: 'Other', code: uniq('o') }) });
    const id = await accountId(t);
    const before = await outboxEvents(id);
    const r = await rest('PUT', acct(t), { headers: t.platformHeaders, body: jsonApi('accounts', { code: other.body.data.attributes.code }) });
    expect(r.status).toBe(409);
    expect(await outboxEvents(id)).toEqual(before);
  });
});

describe('billing events through the outbox', () => {
  test('a subscription create reaches the webhook signed, under the id it is published with', async () => {
    const { t, secret, path } = await hookedTenant();
    const s = await subscribe(t, { model_code: 'starter', trial: false });
    expect(s.status).toBe(201);
    const created = await waitEvent(path, 'subscription.created');
    expect(signed(secret, created)).toBe(true);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^evt_/), subject: { type: 'subscription', id: s.body.data.id }, data: { id: s.body.data.id, model_code: 'starter', status: 'active', move: 'create' } });
    const invoice = await waitEvent(path, 'invoice.created');
    expect(invoice.json.data).toMatchObject({ amount_cents: 4900, status: 'due' });
    const [row] = await db.sql<{ n: number }>('select count(*)::int as n from platform.account_events where id = ?', [created.json.id]);
    expect(row.n).toBe(1);
  });

  test('the renewal job run outside the subgraph records its events; the subgraph delivers them', async () => {
    const { t, secret, path } = await hookedTenant();
    const s = await subscribe(t, { model_code: 'starter' }); // 14-day trial
    const trialEnd = new Date(s.body.data.attributes.trial_end);
    const { result, events } = await db.runBilling(t.platformCode, new Date(trialEnd.getTime() + DAY));
    expect(result.moves).toMatchObject({ convert_trial: 1 });
    const published = events.find((e) => e.event === 'subscription.trial_ended');
    const hook = await waitEvent(path, 'subscription.trial_ended');
    expect(signed(secret, hook)).toBe(true);
    expect(hook.json).toMatchObject({ id: published.id, occurred_at: trialEnd.toISOString(), data: { status: 'active', move: 'convert_trial' } });
  });
});

describe('deleting an account ends its subscription', () => {
  test.each([
    ['/accounts/:url_id', (t: Tenant) => acct(t)],
    ['/platforms/:pid/accounts/:id', (t: Tenant) => `/platforms/${t.platformCode}/accounts/${t.accountUrlId}`],
  ])('DELETE %s: canceled now, MRR drops, events delivered; restore keeps it canceled', async (_family, pathOf) => {
    const { t, secret, path } = await hookedTenant();
    const s = await subscribe(t, { model_code: 'growth', trial: false });
    expect(s.status).toBe(201);
    expect(await mrrOf(t)).toBe(19900);

    const del = await rest('DELETE', pathOf(t), { headers: t.platformHeaders });
    expect(del.status).toBe(200);
    const [sub] = await db.sql('select status, ended_at from platform.subscriptions where id = ?', [s.body.data.id]);
    expect(sub.status).toBe('canceled');
    expect(sub.ended_at).not.toBeNull();
    const [history] = await db.sql(`select movement, arr_before_cents from platform.subscription_events where subscription_id = ? and type = 'cancel_now'`, [s.body.data.id]);
    expect({ movement: history.movement, arr: Number(history.arr_before_cents) }).toEqual({ movement: 'churn', arr: 238800 });
    expect(await mrrOf(t)).toBe(0);

    const canceled = await waitEvent(path, 'subscription.canceled');
    expect(signed(secret, canceled)).toBe(true);
    expect(canceled.json.data).toMatchObject({ id: s.body.data.id, status: 'canceled', move: 'cancel_now' });
    const deleted = await waitEvent(path, 'account.deleted');
    expect(deleted.json.data).toMatchObject({ canceled_subscription_id: s.body.data.id, deleted_at: expect.any(String) });

    const restored = await rest('POST', `${acct(t)}/restore`, { headers: t.platformHeaders });
    expect(restored.status).toBe(200);
    await waitEvent(path, 'account.restored');
    expect(await getSub(t, s.body.data.id)).toMatchObject({ status: 'canceled' });
    expect(await mrrOf(t)).toBe(0);
    // a restored account subscribes again
    expect((await subscribe(t, { model_code: 'starter', trial: false })).status).toBe(201);
  });

  test('an account without a subscription deletes as before', async () => {
    const t = await createTenant();
    expect((await rest('DELETE', acct(t), { headers: t.platformHeaders })).status).toBe(200);
    expect((await rest('GET', acct(t), { headers: t.platformHeaders })).status).toBe(404);
  });
});

describe('block and access events', () => {
  test('license, provision, deprovision, unlicense: one signed event each; idempotent repeats add none', async () => {
    const { t, secret, path } = await hookedTenant();
    const lic = () => rest('POST', `${acct(t)}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_licenses', { block_unique_id: 'blk_crm' }) });
    const prov = () => rest('POST', `${acct(t)}/apps/${t.appId}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_instances', { block_unique_id: 'blk_crm' }) });
    expect((await lic()).status).toBe(201);
    expect((await lic()).status).toBe(200);
    expect((await prov()).status).toBe(201);
    expect((await prov()).status).toBe(200);
    expect((await rest('DELETE', `${acct(t)}/apps/${t.appId}/blocks/blk_crm`, { headers: t.platformHeaders })).status).toBe(200);
    expect((await rest('DELETE', `${acct(t)}/blocks/blk_crm`, { headers: t.platformHeaders })).status).toBe(200);

    const licensed = await waitEvent(path, 'block.licensed');
    expect(signed(secret, licensed)).toBe(true);
    expect(licensed.json.data).toMatchObject({ block_unique_id: 'blk_crm', block_code: 'crm', license_id: expect.stringMatching(/^lic_/) });
    expect((await waitEvent(path, 'block.provisioned')).json.data).toMatchObject({ app_id: t.appId, block_code: 'crm', instance_id: expect.stringMatching(/^bki_/) });
    await waitEvent(path, 'block.deprovisioned');
    await waitEvent(path, 'block.unlicensed');
    const events = (await outboxEvents(await accountId(t))).filter((e) => e.startsWith('block.'));
    expect(events).toEqual(['block.licensed', 'block.provisioned', 'block.deprovisioned', 'block.unlicensed']);
  });

  test('a refused license removal records nothing', async () => {
    const { t } = await hookedTenant();
    await rest('POST', `${acct(t)}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_licenses', { block_unique_id: 'blk_auth' }) });
    await rest('POST', `${acct(t)}/apps/${t.appId}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_instances', { block_unique_id: 'blk_auth' }) });
    expect((await rest('DELETE', `${acct(t)}/blocks/blk_auth`, { headers: t.platformHeaders })).status).toBe(409);
    expect((await outboxEvents(await accountId(t))).filter((e) => e === 'block.unlicensed')).toEqual([]);
  });

  test('grant, suspend, reactivate, revoke: one event each; a refused move records nothing', async () => {
    const { t, secret, path } = await hookedTenant();
    const g = await rest('POST', '/user_accesses', { headers: t.platformHeaders, body: jsonApi('user_accesses', { user_id: 'user-42', account_id: t.accountUrlId, role: 'admin' }) });
    expect(g.status).toBe(201);
    const id = g.body.data.id;
    for (const action of ['suspend', 'reactivate', 'revoke']) expect((await rest('POST', `/user_accesses/${id}/${action}`, { headers: t.platformHeaders })).status).toBe(200);
    expect((await rest('POST', `/user_accesses/${id}/suspend`, { headers: t.platformHeaders })).status).toBe(409);

    const granted = await waitEvent(path, 'access.granted');
    expect(signed(secret, granted)).toBe(true);
    expect(granted.json).toMatchObject({ subject: { type: 'user_access', id }, data: { access_id: id, user_id: 'user-42', target_type: 'account', role: 'admin', status: 'active' } });
    expect((await waitEvent(path, 'access.revoked')).json.data).toMatchObject({ status: 'revoked' });
    const events = (await outboxEvents(await accountId(t))).filter((e) => e.startsWith('access.'));
    expect(events).toEqual(['access.granted', 'access.suspended', 'access.reactivated', 'access.revoked']);
  });
});

describe('block adoption from licenses and instances', () => {
  test('counts licensed accounts and provisioned apps; a deleted account leaves the count', async () => {
    const t = await createTenant();
    const adoption = async () => {
      const r = await rest('GET', `/reporting/engagement?platform=${t.platformCode}&force_refresh=true`, { headers: t.platformHeaders });
      expect(r.status).toBe(200);
      return Object.fromEntries(r.body.data.attributes.block_adoption.map((b: any) => [b.block, b]));
    };
    // a plan that includes every block does not count as adoption
    expect((await subscribe(t, { model_code: 'enterprise', trial: false })).status).toBe(201);
    expect((await adoption()).wallet).toEqual({ block: 'wallet', accounts: 0, apps: 0, adoption_rate: 0 });

    await rest('POST', `${acct(t)}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_licenses', { block_unique_id: 'blk_wallet' }) });
    await rest('POST', `${acct(t)}/apps/${t.appId}/blocks`, { headers: t.platformHeaders, body: jsonApi('block_instances', { block_unique_id: 'blk_wallet' }) });
    expect((await adoption()).wallet).toEqual({ block: 'wallet', accounts: 1, apps: 1, adoption_rate: 1 });

    expect((await rest('DELETE', acct(t), { headers: t.platformHeaders })).status).toBe(200);
    expect((await adoption()).wallet).toEqual({ block: 'wallet', accounts: 0, apps: 0, adoption_rate: null });
  });
});
