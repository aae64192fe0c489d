// Subscriptions, the plan catalog and invoices, end to end (REST bridge → gateway → platform
// subgraph → PostgreSQL), the state machine move by move, and the renewal job driven by a fake clock.
import { createHash } from 'node:crypto';
import { signTenantContext, TENANT_HEADER } from '../../lib/tenant.js';
import { createTenant, gql, jsonApi, rest, stack, type Tenant } from '../harness/client.js';
import { openPlatformDb, type PlatformDb } from '../harness/platform-db.js';
import { expectServiceError } from '../harness/security.js';

const DAY = 86_400_000;
let db: PlatformDb;

beforeAll(async () => {
  db = await openPlatformDb();
});
afterAll(async () => {
  await db.close();
});

const acct = (t: Tenant) => `/accounts/${t.accountUrlId}`;

async function subscribe(t: Tenant, attributes: Record<string, unknown>) {
  return rest('POST', `${acct(t)}/subscriptions`, { body: jsonApi('subscriptions', attributes), headers: t.platformHeaders });
}

async function move(t: Tenant, id: string, action: string, query = '') {
  return rest('POST', `${acct(t)}/subscriptions/${id}/${action}${query}`, { headers: t.platformHeaders });
}

async function invoices(t: Tenant, query = ''): Promise<any[]> {
  const r = await rest('GET', `${acct(t)}/invoices${query}`, { headers: t.platformHeaders });
  expect(r.status).toBe(200);
  return r.body.data;
}

async function getSub(t: Tenant, id: string): Promise<Record<string, any>> {
  const r = await rest('GET', `${acct(t)}/subscriptions/${id}`, { headers: t.platformHeaders });
  expect(r.status).toBe(200);
  return r.body.data.attributes;
}

describe('GET /subscription_models', () => {
  test('the seeded catalog: four plans with prices, trials, blocks and the plan limits of documents 2 and 3', async () => {
    const t = await createTenant();
    const r = await rest('GET', '/subscription_models', { headers: t.platformHeaders });
    expect(r.status).toBe(200);
    const byCode = Object.fromEntries(r.body.data.map((m: any) => [m.attributes.code, m]));
    expect(r.body.data.map((m: any) => m.attributes.code)).toEqual(['free', 'starter', 'growth', 'enterprise']);
    expect(byCode.free).toMatchObject({ id: 'smod_free', type: 'subscription_models' });
    expect(byCode.starter.attributes).toMatchObject({
      unique_id: 'smod_starter',
      name: 'Starter',
      price_monthly_cents: 4900,
      price_annual_cents: 49000,
      currency: 'USD',
      trial_days: 14,
      limits: {
        ai: { requests_per_minute: 300, text_characters_per_request: 25000, images_per_minute: 60 },
        search: { searches_per_second: 50, documents_per_index: 100000, indexes: 10 },
      },
    });
    expect(byCode.free.attributes.limits).toEqual({
      ai: { requests_per_minute: 60, text_characters_per_request: 5000, images_per_minute: 10 },
      search: { searches_per_second: 10, documents_per_index: 10000, indexes: 3 },
    });
    expect(byCode.growth.attributes.limits.ai.requests_per_minute).toBe(1000);
    expect(byCode.growth.attributes.limits.search).toEqual({ searches_per_second: 200, documents_per_index: 1000000, indexes: 50 });
    // Enterprise: "custom" / "unlimited" are null
    expect(byCode.enterprise.attributes.limits).toEqual({
      ai: { requests_per_minute: null, text_characters_per_request: null, images_per_minute: null },
      search: { searches_per_second: null, documents_per_index: null, indexes: null },
    });
    const blocks = [
      'auth', 'crm', 'content', 'files', 'forms', 'geolocation', 'jarvis', 'messaging', 'notifications',
      'onboarding', 'products', 'rewards', 'sales', 'search', 'social', 'university', 'wallet',
    ];
    expect([...byCode.enterprise.attributes.included_blocks].sort()).toEqual([...blocks].sort());
    // each plan includes everything the one below it does
    const tiers = ['free', 'starter', 'growth', 'enterprise'].map((c) => new Set<string>(byCode[c].attributes.included_blocks));
    for (let i = 1; i < tiers.length; i++) for (const b of tiers[i - 1]) expect(tiers[i].has(b)).toBe(true);
  });
});

describe('POST /accounts/:url_id/subscriptions', () => {
  test("a plan with trial days starts trialing by default: trial_end = now + the model's trial days, no invoice, no MRR", async () => {
    const t = await createTenant();
    const before = Date.now();
    const r = await subscribe(t, { model_code: 'starter' });
    expect(r.status).toBe(201);
    const a = r.body.data.attributes;
    expect(r.body.data).toMatchObject({ type: 'subscriptions', id: expect.stringMatching(/^sub_/) });
    expect(a).toMatchObject({ model_code: 'starter', status: 'trialing', billing_cycle: 'monthly', price_cents: 4900, mrr_cents: 0, auto_renew: true, cancel_at_period_end: false, processor: 'manual' });
    const trialEnd = Date.parse(a.trial_end);
    expect(trialEnd - Date.parse(a.trial_start)).toBe(14 * DAY);
    expect(Date.parse(a.trial_start)).toBeGreaterThanOrEqual(before - 1000);
    expect(a.current_period_end).toBe(a.trial_end);
    expect(await invoices(t)).toEqual([]);
    const list = await rest('GET', `${acct(t)}/subscriptions`, { headers: t.platformHeaders });
    expect(list.body.data.map((s: any) => s.id)).toEqual([r.body.data.id]);
  });

  test('without trial: active at once, a monthly period, and the first invoice due in 7 days', async () => {
    const t = await createTenant();
    const r = await subscribe(t, { model_code: 'growth', trial: false });
    expect(r.status).toBe(201);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ status: 'active', price_cents: 19900, mrr_cents: 19900 });
    expect(a.trial_end).toBeNull();
    const start = new Date(a.current_period_start);
    const end = new Date(a.current_period_end);
    expect(end.getUTCDate()).toBe(Math.min(start.getUTCDate(), new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate()));
    expect((end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth()).toBe(1);
    const [inv] = await invoices(t);
    expect(inv.attributes).toMatchObject({ subscription_id: r.body.data.id, amount_cents: 19900, currency: 'USD', status: 'due', overdue: false, processor: 'manual', period_start: a.current_period_start, period_end: a.current_period_end });
    expect(Date.parse(inv.attributes.due_at) - Date.parse(inv.attributes.issued_at)).toBe(7 * DAY);
  });

  test('annual billing: the annual price, a 12-month period, MRR = price / 12', async () => {
    const t = await createTenant();
    const r = await subscribe(t, { model_code: 'starter', billing_cycle: 'annual', trial: false });
    expect(r.status).toBe(201);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ billing_cycle: 'annual', price_cents: 49000, status: 'active' });
    expect(a.mrr_cents).toBeCloseTo(49000 / 12, 2);
    const start = new Date(a.current_period_start);
    const end = new Date(a.current_period_end);
    expect(end.getUTCFullYear() - start.getUTCFullYear()).toBe(1);
    expect(end.getUTCMonth()).toBe(start.getUTCMonth());
  });

  test('the free plan: active, no trial, no invoice', async () => {
    const t = await createTenant();
    const r = await subscribe(t, { model_code: 'free' });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({ status: 'active', price_cents: 0, mrr_cents: 0 });
    expect(await invoices(t)).toEqual([]);
  });

  test('at most one non-canceled subscription per account (409); after a cancellation a new one may start', async () => {
    const t = await createTenant();
    const first = await subscribe(t, { model_code: 'starter' });
    expect(first.status).toBe(201);
    expectServiceError(await subscribe(t, { model_code: 'growth' }), 'platform', 409, 'SUBSCRIPTION_ALREADY_EXISTS');
    expect((await move(t, first.body.data.id, 'cancel', '?immediately=true')).status).toBe(200);
    expect((await subscribe(t, { model_code: 'growth', trial: false })).status).toBe(201);
  });

  test('concurrent creates for one account: exactly one succeeds, the others are 409', async () => {
    const t = await createTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => subscribe(t, { model_code: 'starter', trial: false })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectServiceError(r, 'platform', 409, 'SUBSCRIPTION_ALREADY_EXISTS');
    expect(await invoices(t)).toHaveLength(1);
  });

  test.each([
    [{ model_code: 'platinum' }, 'model_code'],
    [{ model_code: '' }, 'model_code'],
    [{ model_code: 'starter', billing_cycle: 'weekly' }, 'billing_cycle'],
    [{ model_code: 'free', trial: true }, 'trial'],
    [{ model_code: 'starter', processor: 'stripe' }, 'processor'],
    [{ model_code: 'starter', trial: 'yes' }, 'trial'],
  ])('%j → 422 naming %s', async (attributes, parameter) => {
    const t = await createTenant();
    expectServiceError(await subscribe(t, attributes), 'platform', 422, 'VALIDATION_FAILED', { parameter });
  });

  test('model_code is required (422); an unknown account is 404', async () => {
    const t = await createTenant();
    expectServiceError(await subscribe(t, { billing_cycle: 'monthly' }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'model_code' });
    const r = await rest('POST', '/accounts/no-such-account/subscriptions', { body: jsonApi('subscriptions', { model_code: 'starter' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('the state machine, move by move (REST)', () => {
  test('trialing: cancel → flag; cancel again 409; reactivate → flag off; reactivate again 409; suspend → paused', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter' })).body.data.id;
    let r = await move(t, id, 'cancel');
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ status: 'trialing', cancel_at_period_end: true, canceled_at: expect.any(String), ended_at: null });
    expectServiceError(await move(t, id, 'cancel'), 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
    r = await move(t, id, 'reactivate');
    expect(r.body.data.attributes).toMatchObject({ status: 'trialing', cancel_at_period_end: false, canceled_at: null });
    expectServiceError(await move(t, id, 'reactivate'), 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
    r = await move(t, id, 'suspend');
    expect(r.body.data.attributes).toMatchObject({ status: 'paused', paused_at: expect.any(String) });
  });

  test('paused: suspend 409, change_plan 409, reactivate → trialing again while the trial runs', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter' })).body.data.id;
    await move(t, id, 'suspend');
    expectServiceError(await move(t, id, 'suspend'), 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
    const cp = await rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', { model_code: 'growth' }), headers: t.platformHeaders });
    expectServiceError(cp, 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
    const r = await move(t, id, 'reactivate');
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ status: 'trialing', paused_at: null });
  });

  test('active: suspend → paused (MRR 0), reactivate → active with a new invoiced period', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter', trial: false })).body.data.id;
    let r = await move(t, id, 'suspend');
    expect(r.body.data.attributes).toMatchObject({ status: 'paused', mrr_cents: 0 });
    r = await move(t, id, 'reactivate');
    expect(r.body.data.attributes).toMatchObject({ status: 'active', mrr_cents: 4900 });
    const inv = await invoices(t);
    expect(inv).toHaveLength(2);
    expect(inv[0].attributes.period_start).toBe(r.body.data.attributes.current_period_start);
  });

  test('paused: cancel (default) ends it at once: a paused subscription has no period to wait for', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter', trial: false })).body.data.id;
    await move(t, id, 'suspend');
    const r = await move(t, id, 'cancel');
    expect(r.body.data.attributes).toMatchObject({ status: 'canceled', ended_at: expect.any(String) });
  });

  test('canceled is final: cancel, reactivate, suspend and change_plan are all 409', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'growth', trial: false })).body.data.id;
    const r = await move(t, id, 'cancel', '?immediately=true');
    expect(r.body.data.attributes).toMatchObject({ status: 'canceled', mrr_cents: 0, canceled_at: expect.any(String), ended_at: expect.any(String) });
    for (const action of ['cancel', 'reactivate', 'suspend']) {
      const e = expectServiceError(await move(t, id, action), 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
      expect(e.message).toMatch(/canceled/);
    }
    const cp = await rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', { model_code: 'starter' }), headers: t.platformHeaders });
    expectServiceError(cp, 'platform', 409, 'INVALID_SUBSCRIPTION_TRANSITION');
  });

  test('?immediately must be a boolean (400 naming it)', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter' })).body.data.id;
    expectServiceError(await move(t, id, 'cancel', '?immediately=soon'), 'platform', 400, 'BAD_REQUEST', { parameter: 'immediately' });
  });

  test('change_plan: upgrade and downgrade change price and MRR now; same plan is 422; billing cycle switches', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter', trial: false })).body.data.id;
    const change = (attributes: Record<string, unknown>) =>
      rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', attributes), headers: t.platformHeaders });
    let r = await change({ model_code: 'growth' });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ model_code: 'growth', price_cents: 19900, mrr_cents: 19900, status: 'active' });
    expectServiceError(await change({ model_code: 'growth' }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'model_code' });
    expectServiceError(await change({}), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'model_code' });
    r = await change({ billing_cycle: 'annual' });
    expect(r.body.data.attributes).toMatchObject({ billing_cycle: 'annual', price_cents: 199000 });
    expect(r.body.data.attributes.mrr_cents).toBeCloseTo(199000 / 12, 2);
    r = await change({ model_code: 'starter', billing_cycle: 'monthly' });
    expect(r.body.data.attributes).toMatchObject({ model_code: 'starter', billing_cycle: 'monthly', price_cents: 4900 });
    // no proration: still the one invoice of the first period
    expect(await invoices(t)).toHaveLength(1);
  });

  test('leaving the free plan for a paid one starts an invoiced period now', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'free' })).body.data.id;
    const r = await rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', { model_code: 'starter' }), headers: t.platformHeaders });
    expect(r.body.data.attributes).toMatchObject({ status: 'active', price_cents: 4900 });
    const [inv] = await invoices(t);
    expect(inv.attributes).toMatchObject({ amount_cents: 4900, status: 'due', period_start: r.body.data.attributes.current_period_start });
  });

  test("another account's subscription id is 404 in this account", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const id = (await subscribe(a, { model_code: 'starter' })).body.data.id;
    expectServiceError(await rest('GET', `${acct(b)}/subscriptions/${id}`, { headers: b.platformHeaders }), 'platform', 404, 'SUBSCRIPTION_NOT_FOUND');
    expectServiceError(await move(b, id, 'cancel'), 'platform', 404, 'SUBSCRIPTION_NOT_FOUND');
    expectServiceError(await rest('GET', `${acct(a)}/subscriptions/sub_doesnotexist`, { headers: a.platformHeaders }), 'platform', 404, 'SUBSCRIPTION_NOT_FOUND', { parameter: 'subscription_id' });
  });
});

describe('invoices (manual processor)', () => {
  test('pay a due invoice with a reference; paying or voiding it again is 409', async () => {
    const t = await createTenant();
    await subscribe(t, { model_code: 'growth', trial: false });
    const [inv] = await invoices(t, '?status=due');
    const r = await rest('POST', `${acct(t)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', { reference: 'WIRE-42' }), headers: t.platformHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ status: 'paid', payment_reference: 'WIRE-42', paid_at: expect.any(String), overdue: false });
    expectServiceError(
      await rest('POST', `${acct(t)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', {}), headers: t.platformHeaders }),
      'platform', 409, 'INVOICE_NOT_DUE',
    );
    expectServiceError(await rest('POST', `${acct(t)}/invoices/${inv.id}/void`, { headers: t.platformHeaders }), 'platform', 409, 'INVOICE_NOT_DUE');
    expect(await invoices(t, '?status=due')).toEqual([]);
    expect((await invoices(t, '?status=paid')).map((i) => i.id)).toEqual([inv.id]);
    const shown = await rest('GET', `${acct(t)}/invoices/${inv.id}`, { headers: t.platformHeaders });
    expect(shown.body.data.attributes.status).toBe('paid');
  });

  test('void a due invoice; bad paid_at and status filter are rejected naming the parameter', async () => {
    const t = await createTenant();
    await subscribe(t, { model_code: 'starter', trial: false });
    const [inv] = await invoices(t);
    const future = new Date(Date.now() + DAY).toISOString();
    expectServiceError(
      await rest('POST', `${acct(t)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', { paid_at: future }), headers: t.platformHeaders }),
      'platform', 422, 'VALIDATION_FAILED', { parameter: 'paid_at' },
    );
    expectServiceError(
      await rest('POST', `${acct(t)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', { paid_at: 'yesterday' }), headers: t.platformHeaders }),
      'platform', 422, 'VALIDATION_FAILED', { parameter: 'paid_at' },
    );
    expectServiceError(await rest('GET', `${acct(t)}/invoices?status=late`, { headers: t.platformHeaders }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'status' });
    const r = await rest('POST', `${acct(t)}/invoices/${inv.id}/void`, { headers: t.platformHeaders });
    expect(r.body.data.attributes).toMatchObject({ status: 'void', voided_at: expect.any(String) });
  });

  test("another account's invoice is 404", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await subscribe(a, { model_code: 'starter', trial: false });
    const [inv] = await invoices(a);
    expectServiceError(await rest('GET', `${acct(b)}/invoices/${inv.id}`, { headers: b.platformHeaders }), 'platform', 404, 'INVOICE_NOT_FOUND', { parameter: 'invoice_id' });
    expectServiceError(
      await rest('POST', `${acct(b)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', {}), headers: b.platformHeaders }),
      'platform', 404, 'INVOICE_NOT_FOUND',
    );
  });
});

describe('renewal job with a fake clock', () => {
  test('trial → active (invoice) → past_due when unpaid after 7 days → active when paid → renew → lapse when unpaid at period end', async () => {
    const t = await createTenant();
    const created = (await subscribe(t, { model_code: 'starter' })).body.data;
    const id = created.id;
    const trialEnd = new Date(created.attributes.trial_end);

    // before the trial ends: nothing to do
    let run = await db.runBilling(t.platformCode, new Date(trialEnd.getTime() - 1000));
    expect(run.result.subscriptions).toBe(0);

    run = await db.runBilling(t.platformCode, new Date(trialEnd.getTime() + 3600_000));
    expect(run.result.moves).toEqual({ convert_trial: 1 });
    let s = await getSub(t, id);
    expect(s).toMatchObject({ status: 'active', current_period_start: trialEnd.toISOString(), mrr_cents: 4900 });
    let inv = await invoices(t);
    expect(inv).toHaveLength(1);
    expect(inv[0].attributes).toMatchObject({ amount_cents: 4900, status: 'due', issued_at: trialEnd.toISOString(), period_start: trialEnd.toISOString() });
    expect(run.events.map((e) => e.event)).toEqual(['subscription.trial_ended', 'invoice.created']);
    expect(run.events[0]).toMatchObject({ platformId: await db.platformId(t.platformCode), subject: { type: 'subscription', id }, data: { status: 'active', move: 'convert_trial' } });

    // running again at the same time changes nothing
    run = await db.runBilling(t.platformCode, new Date(trialEnd.getTime() + 3600_000));
    expect(run.result.subscriptions).toBe(0);

    // 8 days later the invoice is overdue: past_due (at the invoice's due date)
    run = await db.runBilling(t.platformCode, new Date(trialEnd.getTime() + 8 * DAY));
    expect(run.result.moves).toEqual({ become_past_due: 1 });
    s = await getSub(t, id);
    expect(s).toMatchObject({ status: 'past_due', mrr_cents: 4900 });
    expect((await invoices(t))[0].attributes.status).toBe('due');

    // paying it settles the subscription
    const paid = await rest('POST', `${acct(t)}/invoices/${inv[0].id}/pay`, { body: jsonApi('payments', { reference: 'late' }), headers: t.platformHeaders });
    expect(paid.status).toBe(200);
    expect((await getSub(t, id)).status).toBe('active');

    // the period ends: renewed with a new invoice for the next period
    const periodEnd = new Date(s.current_period_end);
    run = await db.runBilling(t.platformCode, new Date(periodEnd.getTime() + 60_000));
    expect(run.result.moves).toEqual({ renew: 1 });
    s = await getSub(t, id);
    expect(s).toMatchObject({ status: 'active', current_period_start: periodEnd.toISOString() });
    inv = await invoices(t, '?status=due');
    expect(inv).toHaveLength(1);
    expect(inv[0].attributes).toMatchObject({ period_start: periodEnd.toISOString(), period_end: s.current_period_end });

    // not paid: past_due at its due date, then canceled (lapsed) at the end of that period, in one run
    const next = new Date(s.current_period_end);
    run = await db.runBilling(t.platformCode, new Date(next.getTime() + 60_000));
    expect(run.result.moves).toEqual({ become_past_due: 1, lapse: 1 });
    s = await getSub(t, id);
    expect(s).toMatchObject({ status: 'canceled', ended_at: next.toISOString(), mrr_cents: 0 });
    // what is owed stays owed: the operator may still collect or void it
    expect((await invoices(t, '?status=due')).map((i) => i.id)).toEqual([inv[0].id]);
  });

  test('cancel at period end: the job ends it at the period boundary instead of renewing; auto_renew false does the same', async () => {
    const a = await createTenant();
    const s1 = (await subscribe(a, { model_code: 'growth', trial: false })).body.data;
    await rest('POST', `${acct(a)}/invoices/${(await invoices(a))[0].id}/pay`, { body: jsonApi('payments', {}), headers: a.platformHeaders });
    await move(a, s1.id, 'cancel');
    const end1 = new Date(s1.attributes.current_period_end);
    let run = await db.runBilling(a.platformCode, new Date(end1.getTime() + 1000));
    expect(run.result.moves).toEqual({ expire: 1 });
    expect(await getSub(a, s1.id)).toMatchObject({ status: 'canceled', ended_at: end1.toISOString() });
    expect(run.events.map((e) => e.event)).toEqual(['subscription.canceled']);

    const b = await createTenant();
    const s2 = (await subscribe(b, { model_code: 'starter', auto_renew: false })).body.data;
    run = await db.runBilling(b.platformCode, new Date(Date.parse(s2.attributes.trial_end) + 1000));
    expect(run.result.moves).toEqual({ expire: 1 });
    expect(await invoices(b)).toEqual([]);
  });

  test('a job that did not run for months replays every period, one invoice each; annual periods renew yearly', async () => {
    const t = await createTenant();
    const s = (await subscribe(t, { model_code: 'starter', trial: false })).body.data;
    const first = (await invoices(t))[0];
    await rest('POST', `${acct(t)}/invoices/${first.id}/pay`, { body: jsonApi('payments', {}), headers: t.platformHeaders });
    // ~3 months later in one run: renewed at the first period end, that invoice unpaid → past_due, lapsed at the next end
    const start = new Date(s.attributes.current_period_start);
    const at = new Date(start.getTime() + 95 * DAY);
    const run = await db.runBilling(t.platformCode, at);
    expect(run.result.moves.renew).toBe(1);
    expect(run.result.moves.become_past_due).toBe(1);
    expect(run.result.moves.lapse).toBe(1);
    const inv = await invoices(t);
    expect(new Set(inv.map((i) => i.attributes.period_start)).size).toBe(inv.length);

    const y = await createTenant();
    const annual = (await subscribe(y, { model_code: 'starter', billing_cycle: 'annual', trial: false })).body.data;
    const aEnd = new Date(annual.attributes.current_period_end);
    await rest('POST', `${acct(y)}/invoices/${(await invoices(y))[0].id}/pay`, { body: jsonApi('payments', {}), headers: y.platformHeaders });
    const r = await db.runBilling(y.platformCode, new Date(aEnd.getTime() + 1000));
    expect(r.result.moves).toEqual({ renew: 1 });
    const renewed = await getSub(y, annual.id);
    expect(new Date(renewed.current_period_end).getUTCFullYear()).toBe(aEnd.getUTCFullYear() + 1);
    expect((await invoices(y, '?status=due'))[0].attributes.amount_cents).toBe(49000);
  });

  test('two job runs at once issue each period exactly once (row locks, unique period)', async () => {
    const t = await createTenant();
    const s = (await subscribe(t, { model_code: 'starter' })).body.data;
    const at = new Date(Date.parse(s.attributes.trial_end) + 1000);
    const [r1, r2] = await Promise.all([db.runBilling(t.platformCode, at), db.runBilling(t.platformCode, at)]);
    expect((r1.result.moves.convert_trial ?? 0) + (r2.result.moves.convert_trial ?? 0)).toBe(1);
    expect(await invoices(t)).toHaveLength(1);
  });

  test('every change writes a history row with revenue before/after and its movement', async () => {
    const t = await createTenant();
    const id = (await subscribe(t, { model_code: 'starter', trial: false })).body.data.id;
    await rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', { model_code: 'growth' }), headers: t.platformHeaders });
    await rest('POST', `${acct(t)}/subscriptions/${id}/change_plan`, { body: jsonApi('subscriptions', { model_code: 'starter' }), headers: t.platformHeaders });
    await move(t, id, 'suspend');
    await move(t, id, 'reactivate');
    await move(t, id, 'cancel', '?immediately=true');
    const rows = await db.sql<any>(
      'select type, from_status, to_status, arr_before_cents as b, arr_after_cents as a, movement from platform.subscription_events where subscription_id = ? order by occurred_at, id',
      [id],
    );
    // revenue is kept as ARR cents (whole numbers): 12 × the monthly price
    expect(rows.map((r) => [r.type, r.from_status, r.to_status, r.b, r.a, r.movement])).toEqual([
      ['create', null, 'active', 0, 58800, 'new'],
      ['change_plan', 'active', 'active', 58800, 238800, 'expansion'],
      ['change_plan', 'active', 'active', 238800, 58800, 'contraction'],
      ['suspend', 'active', 'paused', 58800, 0, 'churn'],
      ['reactivate', 'paused', 'active', 0, 58800, 'reactivation'],
      ['cancel_now', 'active', 'canceled', 58800, 0, 'churn'],
    ]);
  });
});

describe('the plan travels with the account', () => {
  const VERIFY = 'query($appId: ID!, $keyHash: String!) { _verifyApiKey(appId: $appId, keyHash: $keyHash) { plan accountId } }';

  async function verifiedPlan(t: Tenant): Promise<string> {
    const ctx = signTenantContext({ kind: 'service', requestId: 'test', scopes: [] }, stack().env.INTERNAL_SECRET);
    const keyHash = createHash('sha256').update(t.secretKey).digest('hex');
    const r = await gql(VERIFY, { appId: t.appId, keyHash }, { [TENANT_HEADER]: ctx }, stack().subgraphs.platform);
    expect(r.body.errors).toBeUndefined();
    return r.body.data!._verifyApiKey.plan;
  }

  test("_verifyApiKey (what the gateway puts in tenant.plan) and Account.plan: free, then the subscription's model; free again when paused", async () => {
    const t = await createTenant();
    const q = `query($u: String!) { account(urlId: $u) { plan subscriptions { id status modelCode } } }`;
    expect(await verifiedPlan(t)).toBe('free');
    const id = (await subscribe(t, { model_code: 'growth' })).body.data.id;
    expect(await verifiedPlan(t)).toBe('growth');
    const r = await gql(q, { u: t.accountUrlId }, t.platformHeaders);
    expect(r.body.data.account).toEqual({ plan: 'growth', subscriptions: [{ id, status: 'trialing', modelCode: 'growth' }] });
    await move(t, id, 'suspend');
    expect(await verifiedPlan(t)).toBe('free');
    expect((await gql(q, { u: t.accountUrlId }, t.platformHeaders)).body.data.account.plan).toBe('free');
  });
});
