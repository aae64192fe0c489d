// Subscriptions, the plan catalog and invoices, end to end (REST bridge → gateway → platform
// subgraph → PostgreSQL), and the state machine move by move. The renewal job, the history rows and
// the plan in the tenant context: rest.platform-billing-renewal.test.ts.
import { createTenant, jsonApi, rest } from '../harness/client.js';
import { acct, DAY, invoices, move, subscribe } from '../harness/billing.js';
import { expectServiceError } from '../harness/security.js';

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
