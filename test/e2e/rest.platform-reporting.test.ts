// Investor reporting end to end. A small fixture platform is built through the REST API (accounts,
// subscriptions, plan changes, cancellations, payments), then its history is moved back in time
// with SQL, and every report's numbers are checked against values computed by hand below.
import { createTenant, gql, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { openPlatformDb, type PlatformDb } from '../harness/platform-db.js';
import { expectServiceError } from '../harness/security.js';

let db: PlatformDb;
let t: Tenant;
const acc: Record<string, { urlId: string; id: string; sub?: string }> = {};

async function newAccount(name: string) {
  const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: `${name} ${uniq()}`, code: uniq(name) }), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  acc[name] = { urlId: r.body.data.attributes.url_id, id: r.body.data.id };
}

async function subscribe(name: string, attributes: Record<string, unknown>) {
  const r = await rest('POST', `/accounts/${acc[name].urlId}/subscriptions`, { body: jsonApi('subscriptions', attributes), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  acc[name].sub = r.body.data.id;
}

async function post(name: string, path: string, body?: unknown) {
  const r = await rest('POST', `/accounts/${acc[name].urlId}/${path}`, { headers: t.platformHeaders, ...(body ? { body } : {}) });
  expect(r.status).toBe(200);
  return r.body.data;
}

async function firstInvoice(name: string): Promise<string> {
  const r = await rest('GET', `/accounts/${acc[name].urlId}/invoices`, { headers: t.platformHeaders });
  return r.body.data[0].id;
}

const ago = (days: number) => `now() - interval '${days} days'`;

/** Move an account's rows back in time (only the columns reports read; never the billing periods). */
async function backdate(name: string, days: { account?: number; events?: Record<string, number>; subscription?: number; invoices?: number }) {
  const id = acc[name].id;
  if (days.account !== undefined) await db.sql(`update platform.accounts set created_at = ${ago(days.account)} where id = ?`, [id]);
  if (days.subscription !== undefined) await db.sql(`update platform.subscriptions set created_at = ${ago(days.subscription)} where account_id = ?`, [id]);
  if (days.invoices !== undefined) {
    await db.sql(`update platform.invoices set issued_at = ${ago(days.invoices)}, due_at = ${ago(days.invoices - 7)} where account_id = ?`, [id]);
  }
  for (const [type, d] of Object.entries(days.events ?? {})) {
    await db.sql(`update platform.subscription_events set occurred_at = ${ago(d)} where account_id = ? and type = ?`, [id, type]);
  }
}

async function report(path: string, query = 'force_refresh=true', headers = t.platformHeaders) {
  const r = await rest('GET', `/reporting/${path}?${query}`, { headers });
  expect({ status: r.status, body: r.status === 200 ? 'ok' : r.body }).toEqual({ status: 200, body: 'ok' });
  return r.body.data;
}

const P = () => `platform=${t.platformCode}`;

beforeAll(async () => {
  db = await openPlatformDb();
  t = await createTenant();
  // A8 is the tenant's own account: no subscription, an app with two keys that made 1000 requests yesterday
  acc.A8 = { urlId: t.accountUrlId, id: (await db.sql('select id from platform.accounts where url_id = ? and platform_id = ?', [t.accountUrlId, await db.platformId(t.platformCode)]))[0].id };
  for (const n of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']) await newAccount(n);

  await subscribe('A1', { model_code: 'growth', trial: false }); // 19900 / month
  await post('A1', `invoices/${await firstInvoice('A1')}/pay`, jsonApi('payments', { reference: 'A1' })); // collected now
  await subscribe('A2', { model_code: 'starter', billing_cycle: 'annual', trial: false }); // 49000 / year
  await post('A2', `invoices/${await firstInvoice('A2')}/pay`, jsonApi('payments', { paid_at: new Date(Date.now() - 55 * 86_400_000).toISOString() }));
  await subscribe('A3', { model_code: 'starter', trial: false }); // 4900, canceled 10 days ago, invoice left unpaid
  await post('A3', `subscriptions/${acc.A3.sub}/cancel?immediately=true`);
  await subscribe('A4', { model_code: 'starter' }); // trialing, created now
  await subscribe('A5', { model_code: 'enterprise', trial: false }); // 99900, created 5 days ago, invoice due in 2 days
  await subscribe('A6', { model_code: 'growth', trial: false }); // 19900 → starter 4900, 20 days ago
  await post('A6', `invoices/${await firstInvoice('A6')}/pay`, jsonApi('payments', {}));
  await post('A6', `subscriptions/${acc.A6.sub}/change_plan`, jsonApi('subscriptions', { model_code: 'starter' }));
  await subscribe('A7', { model_code: 'starter', trial: false }); // 4900, paused 3 days ago, invoice voided
  await post('A7', `invoices/${await firstInvoice('A7')}/void`);
  await post('A7', `subscriptions/${acc.A7.sub}/suspend`);

  await backdate('A8', { account: 100 });
  await backdate('A1', { account: 60, subscription: 60, invoices: 60, events: { create: 60 } });
  await backdate('A2', { account: 60, subscription: 60, invoices: 60, events: { create: 60 } });
  await backdate('A3', { account: 60, subscription: 60, invoices: 60, events: { create: 60, cancel_now: 10 } });
  await backdate('A5', { account: 5, subscription: 5, invoices: 5, events: { create: 5 } });
  await backdate('A6', { account: 60, subscription: 60, invoices: 60, events: { create: 60, change_plan: 20 } });
  await backdate('A7', { account: 60, subscription: 60, invoices: 60, events: { create: 60, suspend: 3 } });
  // block licenses: A1 auth + crm, A2 auth, A8 auth + jarvis, both provisioned to A8's app
  const license = async (name: string, block: string) =>
    expect((await rest('POST', `/accounts/${acc[name].urlId}/blocks`, { body: jsonApi('block_licenses', { block_unique_id: block }), headers: t.platformHeaders })).status).toBe(201);
  for (const [name, block] of [['A1', 'blk_auth'], ['A1', 'blk_crm'], ['A2', 'blk_auth'], ['A8', 'blk_auth'], ['A8', 'blk_jarvis']]) await license(name, block);
  for (const block of ['blk_auth', 'blk_jarvis']) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/blocks`, { body: jsonApi('block_instances', { block_unique_id: block }), headers: t.platformHeaders });
    expect(r.status).toBe(201);
  }
  await db.sql(
    `update platform.api_keys set usage_count = case key_type when 'secret' then 990 else 10 end, last_used_at = ${ago(1)}
      where app_id = ?`,
    [t.appId],
  );
}, 60_000);

afterAll(async () => {
  await db.close();
});

// MRR now: A1 19900 + A2 49000/12 + A5 99900 + A6 4900 = 128783.33; movement over 30 days: new 99900 (A5),
// contraction 15000 (A6), churn 4900 (A3) + 4900 (A7) → net 75100; MRR 30 days ago 53683.33.
describe('GET /reporting/revenue', () => {
  test('MRR (annual / 12, trials and paused excluded), ARR, ARPA by tier, block and platform, invoicing', async () => {
    const r = await report('revenue', `${P()}&period=30d&force_refresh=true`);
    expect(r).toMatchObject({ id: 'revenue', type: 'reports' });
    const a = r.attributes;
    expect(a).toMatchObject({
      period: '30d',
      platform: t.platformCode,
      currency: 'USD',
      cached: false,
      mrr_cents: 128783,
      arr_cents: 1545400,
      paying_accounts: 4,
      arpa_cents: 32196,
      mrr_at_period_start_cents: 53683,
      mrr_growth_rate: 1.3989,
      invoiced_cents: 99900,
      collected_cents: 39800,
      outstanding_cents: 104800,
      overdue_cents: 4900,
    });
    const tier = Object.fromEntries(a.by_tier.map((x: any) => [x.tier, x]));
    expect(a.by_tier.map((x: any) => x.tier)).toEqual(['free', 'starter', 'growth', 'enterprise']);
    expect(tier.free).toEqual({ tier: 'free', name: 'Free', paying_accounts: 0, mrr_cents: 0, arr_cents: 0, arpa_cents: 0, share: 0 });
    expect(tier.starter).toEqual({ tier: 'starter', name: 'Starter', paying_accounts: 2, mrr_cents: 8983, arr_cents: 107800, arpa_cents: 4492, share: 0.0698 });
    expect(tier.growth).toMatchObject({ paying_accounts: 1, mrr_cents: 19900, arr_cents: 238800, arpa_cents: 19900 });
    expect(tier.enterprise).toMatchObject({ paying_accounts: 1, mrr_cents: 99900, share: 0.7757 });
    const block = Object.fromEntries(a.by_block.map((x: any) => [x.block, x]));
    expect(a.by_block).toHaveLength(17);
    expect(block.auth).toEqual({ block: 'auth', paying_accounts: 4, mrr_cents: 128783, arpa_cents: 32196 });
    expect(block.jarvis).toEqual({ block: 'jarvis', paying_accounts: 2, mrr_cents: 119800, arpa_cents: 59900 });
    expect(block.university).toEqual({ block: 'university', paying_accounts: 1, mrr_cents: 99900, arpa_cents: 99900 });
    expect(a.by_platform).toEqual([{ platform: t.platformCode, name: `Platform ${t.platformCode}`, paying_accounts: 4, mrr_cents: 128783, arr_cents: 1545400, arpa_cents: 32196 }]);
  });

  test('7 days: only A5 (new) and A7 (paused) moved', async () => {
    const a = (await report('revenue', `${P()}&period=7d&force_refresh=true`)).attributes;
    expect(a).toMatchObject({ mrr_cents: 128783, mrr_at_period_start_cents: 33783, mrr_growth_rate: 2.812, invoiced_cents: 99900, collected_cents: 39800 });
  });

  test('all_time: no period start, so no growth rate; everything ever invoiced', async () => {
    const a = (await report('revenue', `${P()}&period=all_time&force_refresh=true`)).attributes;
    expect(a).toMatchObject({ period: 'all_time', mrr_cents: 128783, mrr_at_period_start_cents: 0, mrr_growth_rate: null });
    // A1 19900 + A2 49000 + A3 4900 + A5 99900 + A6 19900 (A7's is void)
    expect(a.invoiced_cents).toBe(193600);
    expect(a.collected_cents).toBe(19900 + 49000 + 19900);
  });
});

describe('GET /reporting/customers', () => {
  test('states, trials, logo churn, gross MRR churn and health over 30 days', async () => {
    const a = (await report('customers', `${P()}&period=30d&force_refresh=true`)).attributes;
    expect(a).toMatchObject({
      total_accounts: 8,
      trialing_accounts: 1,
      paying_accounts: 4,
      past_due_accounts: 0,
      paused_accounts: 1,
      free_accounts: 1,
      churned_accounts: 1,
      trials: { started: 1, converted: 0, lost: 0, conversion_rate: null },
      // paying 30 days ago: A1 A2 A3 A6 A7; not paying now: A3 (canceled), A7 (paused)
      churn: { paying_at_period_start: 5, churned_accounts: 2, logo_churn_rate: 0.4, churned_mrr_cents: 9800, contraction_mrr_cents: 15000, gross_mrr_churn_rate: 0.462 },
    });
    // scores: A1 A2 A5 A6 50 (active 40 + nothing overdue 10), A4 40 (trialing 30 + 10), A8 60 (usage 30 + recent 20 + 10),
    // A7 15 (paused 5 + 10), A3 0 (no live subscription, an overdue invoice)
    expect(a.health).toMatchObject({ average_score: 39.4, average_paying_score: 50, healthy: 0, at_risk: 6, critical: 2 });
    // ties ordered by account code (the fixture's codes start with their names)
    expect(a.health.lowest_paying.map((x: any) => [x.account_id, x.score])).toEqual(['A1', 'A2', 'A5', 'A6'].map((n) => [acc[n].id, 50]));
    expect(new Set(a.health.lowest_paying.map((x: any) => x.plan))).toEqual(new Set(['growth', 'starter', 'enterprise']));
  });

  test('7 days: paying a week ago A1 A2 A6 A7, of which A7 paused', async () => {
    const a = (await report('customers', `${P()}&period=7d&force_refresh=true`)).attributes;
    expect(a.churn).toEqual({ paying_at_period_start: 4, churned_accounts: 1, logo_churn_rate: 0.25, churned_mrr_cents: 4900, contraction_mrr_cents: 0, gross_mrr_churn_rate: 0.145 });
  });

  test('all_time: the cohort is every account that ever paid; MRR churn over all MRR ever gained', async () => {
    const a = (await report('customers', `${P()}&period=all_time&force_refresh=true`)).attributes;
    // ever paid: A1 A2 A3 A5 A6 A7; lost 24800 of 153583.33 gained
    expect(a.churn).toEqual({ paying_at_period_start: 6, churned_accounts: 2, logo_churn_rate: 0.3333, churned_mrr_cents: 9800, contraction_mrr_cents: 15000, gross_mrr_churn_rate: 0.1615 });
  });
});

describe('GET /reporting/growth', () => {
  test('new accounts, MRR movement and net new MRR over 30 days, with a daily series that adds up', async () => {
    const a = (await report('growth', `${P()}&period=30d&force_refresh=true`)).attributes;
    expect(a).toMatchObject({
      new_accounts: 2,
      accounts_at_period_start: 6,
      total_accounts: 8,
      account_growth_rate: 0.3333,
      new_subscriptions: 2,
      new_trials: 1,
      mrr_movement: { new_cents: 99900, expansion_cents: 0, contraction_cents: 15000, churn_cents: 9800, reactivation_cents: 0, net_new_cents: 75100 },
      mrr_at_period_start_cents: 53683,
      mrr_cents: 128783,
      bucket_unit: 'day',
    });
    expect(a.series.length).toBeGreaterThanOrEqual(30);
    expect(a.series.length).toBeLessThanOrEqual(32);
    expect(a.series.reduce((s: number, p: any) => s + p.net_new_mrr_cents, 0)).toBe(75100);
    expect(a.series.reduce((s: number, p: any) => s + p.new_accounts, 0)).toBe(2);
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    expect(a.series.find((p: any) => p.bucket.startsWith(fiveDaysAgo))).toMatchObject({ new_accounts: 1, net_new_mrr_cents: 99900 });
  });

  test('all_time: movement adds up to MRR now; monthly buckets', async () => {
    const a = (await report('growth', `${P()}&period=all_time&force_refresh=true`)).attributes;
    expect(a.mrr_movement).toEqual({ new_cents: 153583, expansion_cents: 0, contraction_cents: 15000, churn_cents: 9800, reactivation_cents: 0, net_new_cents: 128783 });
    expect(a).toMatchObject({ new_accounts: 8, account_growth_rate: null, bucket_unit: 'month' });
  });
});

describe('GET /reporting/engagement', () => {
  test('API requests from key usage, active accounts, block adoption from the licenses and instances', async () => {
    const a = (await report('engagement', `${P()}&period=30d&force_refresh=true`)).attributes;
    expect(a).toMatchObject({
      api_requests: 1000,
      total_accounts: 8,
      active_accounts: 1,
      active_account_rate: 0.125,
      total_apps: 1,
      active_apps: 1,
      total_keys: 2,
      keys_used: 2,
      requests_per_account: 125,
    });
    const adoption = Object.fromEntries(a.block_adoption.map((x: any) => [x.block, x]));
    expect(a.block_adoption).toHaveLength(17);
    // licenses: A1 auth + crm, A2 auth, A8 auth + jarvis; A8's app has auth and jarvis (plans do not count)
    expect(a.block_adoption[0]).toEqual({ block: 'auth', accounts: 3, apps: 1, adoption_rate: 0.375 });
    expect(adoption.crm).toEqual({ block: 'crm', accounts: 1, apps: 0, adoption_rate: 0.125 });
    expect(adoption.jarvis).toEqual({ block: 'jarvis', accounts: 1, apps: 1, adoption_rate: 0.125 });
    expect(adoption.university).toEqual({ block: 'university', accounts: 0, apps: 0, adoption_rate: 0 });
    expect(a.top_accounts).toEqual([{ account_id: acc.A8.id, code: expect.any(String), platform: t.platformCode, requests: 1000 }]);
  });
});

describe('GET /reporting/dashboard, /platforms, /platforms/:code', () => {
  test('dashboard for one platform', async () => {
    const r = await report('dashboard', `${P()}&period=30d&force_refresh=true`);
    expect(r).toMatchObject({ id: 'dashboard', type: 'reports' });
    expect(r.attributes).toMatchObject({
      platforms: 1,
      total_accounts: 8,
      new_accounts: 2,
      paying_accounts: 4,
      trialing_accounts: 1,
      mrr_cents: 128783,
      arr_cents: 1545400,
      arpa_cents: 32196,
      net_new_mrr_cents: 75100,
      mrr_growth_rate: 1.3989,
      logo_churn_rate: 0.4,
      gross_mrr_churn_rate: 0.462,
      trial_conversion_rate: null,
      api_requests: 1000,
      active_accounts: 1,
    });
  });

  test('the same numbers over GraphQL at the gateway', async () => {
    const q = `query($p: String) { reportingDashboard(period: "30d", platform: $p, forceRefresh: true) { platform mrrCents netNewMrrCents logoChurnRate }
                                   reportingRevenue(period: "30d", platform: $p) { byTier { tier payingAccounts } } }`;
    const r = await gql(q, { p: t.platformCode }, t.platformHeaders);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.reportingDashboard).toEqual({ platform: t.platformCode, mrrCents: 128783, netNewMrrCents: 75100, logoChurnRate: 0.4 });
    expect(r.body.data.reportingRevenue.byTier.find((x: any) => x.tier === 'starter').payingAccounts).toBe(2);
  });

  test('dashboard across all platforms includes this one', async () => {
    await createTenant();
    const a = (await report('dashboard', 'force_refresh=true')).attributes;
    expect(a.platform).toBeNull();
    expect(a.platforms).toBeGreaterThanOrEqual(2);
    expect(a.mrr_cents).toBeGreaterThanOrEqual(128783);
    expect(a.total_accounts).toBeGreaterThanOrEqual(8);
  });

  test('platforms: one row per platform', async () => {
    const all = (await report('platforms', 'period=30d&force_refresh=true')).attributes.platforms;
    const mine = all.find((p: any) => p.code === t.platformCode);
    expect(mine).toEqual({
      code: t.platformCode,
      name: `Platform ${t.platformCode}`,
      status: 'active',
      total_accounts: 8,
      new_accounts: 2,
      paying_accounts: 4,
      trialing_accounts: 1,
      mrr_cents: 128783,
      arr_cents: 1545400,
      arpa_cents: 32196,
      net_new_mrr_cents: 75100,
      api_requests: 1000,
    });
    const only = (await report('platforms', `${P()}&force_refresh=true`)).attributes.platforms;
    expect(only.map((p: any) => p.code)).toEqual([t.platformCode]);
  });

  test('platforms/:code: the summary and the four reports for that platform', async () => {
    const r = await report(`platforms/${t.platformCode}`, 'period=30d&force_refresh=true');
    expect(r).toMatchObject({ id: t.platformCode, type: 'reports' });
    const a = r.attributes;
    expect(a.summary).toMatchObject({ code: t.platformCode, mrr_cents: 128783, paying_accounts: 4 });
    expect(a.revenue).toMatchObject({ mrr_cents: 128783, platform: t.platformCode });
    expect(a.customers.churn.logo_churn_rate).toBe(0.4);
    expect(a.growth.mrr_movement.net_new_cents).toBe(75100);
    expect(a.engagement.api_requests).toBe(1000);
    expectServiceError(await rest('GET', '/reporting/platforms/no-such-platform', { headers: t.platformHeaders }), 'platform', 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('cache, parameters and scope', () => {
  test('a second request is served from the cache; force_refresh recomputes and sees new records', async () => {
    const first = (await report('revenue', `${P()}&period=90d&force_refresh=true`)).attributes;
    const second = (await report('revenue', `${P()}&period=90d`)).attributes;
    expect(second).toMatchObject({ cached: true, generated_at: first.generated_at, mrr_cents: first.mrr_cents });
    // another platform's report is another cache entry
    expect((await report('revenue', 'period=90d')).attributes.platform).toBeNull();
    await newAccount('A9');
    await subscribe('A9', { model_code: 'growth', trial: false });
    expect((await report('revenue', `${P()}&period=90d`)).attributes.mrr_cents).toBe(first.mrr_cents);
    const fresh = (await report('revenue', `${P()}&period=90d&force_refresh=true`)).attributes;
    expect(fresh).toMatchObject({ cached: false, mrr_cents: first.mrr_cents + 19900 });
    expect(Date.parse(fresh.generated_at)).toBeGreaterThanOrEqual(Date.parse(first.generated_at));
    await post('A9', `subscriptions/${acc.A9.sub}/cancel?immediately=true`);
    await db.sql(`update platform.accounts set deleted_at = now() where id = ?`, [acc.A9.id]);
  });

  test('bad period, force_refresh and platform values are refused naming the parameter', async () => {
    const h = t.platformHeaders;
    expectServiceError(await rest('GET', '/reporting/revenue?period=1y', { headers: h }), 'platform', 400, 'BAD_REQUEST', { parameter: 'period' });
    expectServiceError(await rest('GET', '/reporting/growth?force_refresh=maybe', { headers: h }), 'platform', 400, 'BAD_REQUEST', { parameter: 'force_refresh' });
    expectServiceError(await rest('GET', '/reporting/customers?platform=nope-nope', { headers: h }), 'platform', 404, 'PLATFORM_NOT_FOUND', { parameter: 'platform' });
  });

  test('platform:admin only; a token bound to another platform sees only its own platform', async () => {
    const manage = { authorization: `Bearer ${mintToken({ scopes: ['platform:manage', 'platform:read'] })}`, 'x-platform': t.platformCode };
    expectServiceError(await rest('GET', '/reporting/dashboard', { headers: manage }), 'platform', 403, 'INSUFFICIENT_SCOPE');
    const other = await createTenant();
    const bound = { authorization: `Bearer ${mintToken({ platform: other.platformCode })}`, 'x-platform': other.platformCode };
    expectServiceError(await rest('GET', `/reporting/revenue?${P()}`, { headers: bound }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    expectServiceError(await rest('GET', `/reporting/platforms/${t.platformCode}`, { headers: bound }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    const own = (await report('dashboard', 'force_refresh=true', bound)).attributes;
    expect(own).toMatchObject({ platform: other.platformCode, platforms: 1, total_accounts: 1, mrr_cents: 0 });
    const list = (await report('platforms', 'force_refresh=true', bound)).attributes.platforms;
    expect(list.map((p: any) => p.code)).toEqual([other.platformCode]);
  });
});
