// The renewal job driven by a fake clock (run in this process against the stack's database), the
// history rows reporting reads, account events, and the plan that travels in the tenant context.
import { createHash } from 'node:crypto';
import { createRedisPubSub } from '../../lib/pubsub.js';
import { createLogger } from '../../lib/logger.js';
import { signTenantContext, TENANT_HEADER } from '../../lib/tenant.js';
import { createTenant, gql, jsonApi, rest, stack, type Tenant } from '../harness/client.js';
import { acct, DAY, getSub, invoices, move, subscribe } from '../harness/billing.js';
import { openPlatformDb, type PlatformDb } from '../harness/platform-db.js';

let db: PlatformDb;

beforeAll(async () => {
  db = await openPlatformDb();
});
afterAll(async () => {
  await db.close();
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
    const keyHash = createHash('sha256').update(t.secretKey).digest('hex');
    // gql() sends JSON.stringify({ query, variables }): the body the header is bound to
    const body = JSON.stringify({ query: VERIFY, variables: { appId: t.appId, keyHash } });
    const ctx = signTenantContext({ kind: 'service', requestId: 'test', scopes: [] }, stack().env.INTERNAL_SECRET, { audience: 'platform', body });
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

describe('account events from the API', () => {
  const REDIS_URL = process.env.REDIS_URL;
  const maybe = REDIS_URL && stack().redis ? test : test.skip;

  maybe('subscription and invoice changes reach platform.account.events:<platform id> after commit, in order', async () => {
    const t = await createTenant();
    const platformId = await db.platformId(t.platformCode);
    const pubsub = await createRedisPubSub({ redisUrl: REDIS_URL! }, createLogger({ test: 'events' }, 'silent'), stack().env.REDIS_KEY_PREFIX);
    const it = pubsub.subscribe(`platform.account.events:${platformId}`);
    const received: any[] = [];
    const collecting = (async () => {
      for await (const e of { [Symbol.asyncIterator]: () => it }) {
        received.push(e);
        if (received.length === 4) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 200)); // the Redis SUBSCRIBE is asynchronous
    const id = (await subscribe(t, { model_code: 'starter', trial: false })).body.data.id;
    const [inv] = await invoices(t);
    await rest('POST', `${acct(t)}/invoices/${inv.id}/pay`, { body: jsonApi('payments', { reference: 'evt' }), headers: t.platformHeaders });
    await move(t, id, 'cancel');
    await Promise.race([collecting, new Promise((r) => setTimeout(r, 5000))]);
    await pubsub.close();
    expect(received.map((e) => e.event)).toEqual(['subscription.created', 'invoice.created', 'invoice.paid', 'subscription.updated']);
    expect(received[0]).toMatchObject({
      platformId,
      accountId: expect.stringMatching(/^acct_/),
      subject: { type: 'subscription', id },
      data: { id, model_code: 'starter', status: 'active', move: 'create' },
      occurredAt: expect.any(String),
    });
    expect(received[2].data).toMatchObject({ id: inv.id, status: 'paid' });
    expect(received[3].data).toMatchObject({ cancel_at_period_end: true, move: 'cancel' });
  });
});
