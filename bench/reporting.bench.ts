// Reporting at scale: seeds 10,000 accounts and 50,000 subscriptions (with their history rows,
// invoices, apps and keys) by bulk SQL into a scratch database, then times every report uncached
// (force_refresh=true) end to end through the REST bridge, and once cached. Target: ≤ 300 ms each.
//   npx node --import @swc-node/register/esm-register bench/reporting.bench.ts
// Uses DATABASE_URL when set (a scratch database is created and dropped), else the embedded server.
import { resolve } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { requestJson } from '../lib/http-client.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential } from './stats.js';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10_000);
const SUBS_PER_ACCOUNT = 5; // 4 ended ones and the live (or last) one: 50,000 subscriptions
const PLATFORMS = 20;
const N = Number(process.env.BENCH_N ?? 15);
const ONLY = process.env.BENCH_ONLY; // e.g. customers: time one report only
const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 17000);

const scratch = await scratchDatabase('reporting');
const dbUrl = scratch.url;
const env = {
  ...process.env,
  DATABASE_URL: dbUrl ?? '',
  REDIS_URL: '',
  ...stackPorts(base),
  DATA_DIR: resolve(ROOT, '.data', 'bench-reporting'),
  JWT_SECRET: 'bench-secret',
  LOG_LEVEL: 'error',
};
const cfg = loadConfig(env);
const stack = await startStack(cfg, createLogger({}, 'error'));
const rest = `http://127.0.0.1:${cfg.restPort}`;

// ---------------------------------------------------------------------------------------------
// Seed (bulk SQL, one statement per table). Deterministic ids from the series number; random()
// only shapes the data (dates, plans, usage), never an id or a token.
const db = new pg.Client({ connectionString: stack.dbUrl });
await db.connect();
const seedStart = performance.now();
await db.query('begin');
await db.query(`delete from platform.subscription_events; delete from platform.invoices; delete from platform.subscriptions;
                delete from platform.api_keys; delete from platform.apps; delete from platform.accounts; delete from platform.platforms`);
await db.query(
  `insert into platform.platforms (id, url_id, code, name, status, enabled, schema_name, settings, metadata, created_at, updated_at)
   select 'plat_b' || g, 'bench-' || g, 'bench' || g, 'Bench platform ' || g, 'active', true, 'platform_bench' || g, '{}', '{}', now() - interval '800 days', now()
     from generate_series(1, $1) g`,
  [PLATFORMS],
);
await db.query(
  `insert into platform.accounts (id, platform_id, name, code, url_id, status, deployment_model, created_at, updated_at, deleted_at)
   select 'acct_b' || g, 'plat_b' || (1 + g % $2), 'Account ' || g, 'acct' || g, 'acct-' || g, 'active', 'shared_cloud',
          now() - (random() * 730 || ' days')::interval, now(), case when g % 97 = 0 then now() else null end
     from generate_series(1, $1) g`,
  [ACCOUNTS, PLATFORMS],
);
await db.query(
  `insert into platform.apps (id, account_id, platform_id, name, app_type, purpose, status, oauth_enabled, rate_limit_per_minute, allowed_origins, domain_verified, created_at, updated_at)
   select 'app_b' || a.n, a.id, a.platform_id, 'App', 'web', 'production', 'active', false, 1000, '{}', false, a.created_at, now()
     from (select id, platform_id, created_at, substr(id, 7)::int as n from platform.accounts) a`,
);
await db.query(
  `insert into platform.api_keys (id, app_id, platform_id, name, key_type, environment, scopes, allowed_ips, allowed_origins, usage_count,
                                  key_hash, key_prefix, last_four, created_at, last_used_at)
   select 'key_b' || ap.n || '_' || k, ap.id, ap.platform_id, 'key', case k when 1 then 'secret' else 'publishable' end, 'live', '{}', '{}', '{}',
          (random() * random() * 200000)::bigint, encode(sha256(convert_to(ap.id || ':' || k, 'UTF8')), 'hex'), 'sk_live_sh_', 'abcd', ap.created_at,
          case when random() < 0.8 then now() - (random() * 120 || ' days')::interval end
     from (select id, platform_id, created_at, substr(id, 6)::int as n from platform.apps) ap cross join generate_series(1, 2) k`,
);
// Subscriptions: slot k of 5 in the account's life; slots 1-4 ended (canceled); slot 5 is live
// with a mix of states. Plans: free 20%, starter 40%, growth 30%, enterprise 10%; annual 25%.
await db.query(
  `insert into platform.subscriptions (id, account_id, platform_id, model_id, status, billing_cycle, price_cents, currency, auto_renew,
                                       cancel_at_period_end, processor, trial_start, trial_end, billing_anchor, current_period_start,
                                       current_period_end, paused_at, canceled_at, ended_at, created_at, updated_at)
   select 'sub_b' || a.n || '_' || k, a.id, a.platform_id, m.id, st.status, cy.cycle,
          case cy.cycle when 'annual' then m.price_annual_cents else m.price_monthly_cents end, 'USD', true, false, 'manual',
          case when st.status = 'trialing' then now() - interval '3 days' end, case when st.status = 'trialing' then now() + interval '11 days' end,
          t.created, greatest(t.created, now() - interval '10 days'), now() + interval '20 days',
          case when st.status = 'paused' then now() - (random() * 60 || ' days')::interval end,
          case when st.status = 'canceled' then t.ended end, case when st.status = 'canceled' then t.ended end, t.created, now()
     from (select id, platform_id, created_at, substr(id, 7)::int as n from platform.accounts) a
     cross join generate_series(1, ${SUBS_PER_ACCOUNT}) k
     cross join lateral (select a.created_at + (now() - a.created_at) * ((k - 1) / ${SUBS_PER_ACCOUNT}.0) as created,
                                a.created_at + (now() - a.created_at) * ((k - 0.2) / ${SUBS_PER_ACCOUNT}.0) as ended, random() as r, random() as p, random() as c) t
     cross join lateral (select case when k < ${SUBS_PER_ACCOUNT} then 'canceled'
                                     when t.r < 0.10 then 'trialing' when t.r < 0.75 then 'active' when t.r < 0.80 then 'past_due'
                                     when t.r < 0.85 then 'paused' else 'canceled' end as status) st
     cross join lateral (select case when t.c < 0.25 then 'annual' else 'monthly' end as cycle) cy
     join platform.subscription_models m on m.code = case when t.p < 0.2 then 'free' when t.p < 0.6 then 'starter' when t.p < 0.9 then 'growth' else 'enterprise' end`,
);
// History consistent with the rows (ARR cents): create (0 → ARR, or half of it for the 15% that upgraded later),
// then the move that led to the current state.
const arr = `(case when s.billing_cycle = 'annual' then s.price_cents else s.price_cents * 12 end)`;
await db.query(
  `insert into platform.subscription_events (id, subscription_id, account_id, platform_id, type, from_status, to_status, model_code, billing_cycle,
                                             arr_before_cents, arr_after_cents, movement, occurred_at)
   select 'sev_' || s.id || '_' || e.seq, s.id, s.account_id, s.platform_id, e.type, e.from_status, e.to_status, m.code, s.billing_cycle,
          e.before, e.after,
          case when e.before = e.after then null when e.before = 0 then 'new' when e.after = 0 then 'churn'
               when e.after > e.before then 'expansion' else 'contraction' end,
          e.at
     from platform.subscriptions s join platform.subscription_models m on m.id = s.model_id
     cross join lateral (select ${arr} as full_arr, (substr(md5(s.id), 1, 2) < '26') as upgraded) x
     cross join lateral (values
       (1, 'create', null, case when s.status = 'trialing' then 'trialing' else 'active' end,
           0, case when s.status = 'trialing' then 0 when x.upgraded and s.status = 'active' then x.full_arr / 2 else x.full_arr end, s.created_at),
       (2, case s.status when 'canceled' then 'cancel_now' when 'paused' then 'suspend' when 'past_due' then 'become_past_due' else 'change_plan' end,
           'active', s.status,
           case when x.upgraded and s.status = 'active' then x.full_arr / 2 else x.full_arr end,
           case when s.status in ('canceled', 'paused') then 0 else x.full_arr end,
           coalesce(s.canceled_at, s.paused_at, s.created_at + (now() - s.created_at) / 2))
     ) as e(seq, type, from_status, to_status, before, after, at)
    where e.seq = 1 or (s.status <> 'trialing' and (s.status <> 'active' or x.upgraded))`,
);
await db.query(
  `insert into platform.invoices (id, subscription_id, account_id, platform_id, amount_cents, currency, period_start, period_end, status, processor,
                                  issued_at, due_at, paid_at, created_at)
   select 'inv_' || s.id, s.id, s.account_id, s.platform_id, s.price_cents, 'USD', s.created_at, s.created_at + interval '1 month',
          case when s.status = 'past_due' then 'due' else 'paid' end, 'manual', s.created_at, s.created_at + interval '7 days',
          case when s.status = 'past_due' then null else s.created_at + interval '2 days' end, s.created_at
     from platform.subscriptions s where s.price_cents > 0 and s.status <> 'trialing'`,
);
await db.query('commit');
await db.query('analyze');
const counts = (await db.query(
  `select (select count(*) from platform.accounts) accounts, (select count(*) from platform.subscriptions) subscriptions,
          (select count(*) from platform.subscription_events) events, (select count(*) from platform.invoices) invoices,
          (select count(*) from platform.api_keys) keys`,
)).rows[0];
await db.end();
const seedMs = performance.now() - seedStart;

// ---------------------------------------------------------------------------------------------
const now = Math.floor(Date.now() / 1000);
const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
const headers = { authorization: `Bearer ${token}`, 'x-platform': 'bench1' };
const get = async (path: string) => {
  const r = await requestJson('GET', `${rest}${path}`, headers);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text);
};

console.log(`# bench/reporting.bench.ts  (${new Date().toISOString()}, node ${process.version}, N=${N} per line)`);
console.log(
  `seeded ${counts.accounts} accounts, ${counts.subscriptions} subscriptions, ${counts.events} history rows, ${counts.invoices} invoices, ` +
    `${counts.keys} keys over ${PLATFORMS} platforms in ${(seedMs / 1000).toFixed(1)} s`,
);
const REPORTS = ['dashboard', 'revenue', 'customers', 'growth', 'engagement', 'platforms', 'platforms/bench1'];
const worst: { label: string; p95: number }[] = [];
for (const period of ['30d', 'all_time']) {
  for (const rep of REPORTS.filter((r) => !ONLY || r === ONLY)) {
    const path = `/reporting/${rep}?period=${period}&force_refresh=true`;
    const st = await sequential(N, 2, () => get(path));
    console.log(fmt(`uncached ${rep} ${period}`, st));
    worst.push({ label: `${rep} ${period}`, p95: st.p95 });
  }
}
const one = await sequential(N, 2, () => get(`/reporting/revenue?period=30d&platform=bench1&force_refresh=true`));
console.log(fmt('uncached revenue 30d, one platform', one));
const cached = await sequential(N * 10, 5, () => get('/reporting/dashboard?period=30d'));
console.log(fmt('cached dashboard 30d', cached));
const slowest = worst.sort((a, b) => b.p95 - a.p95)[0];
console.log(`slowest uncached report p95: ${slowest.label} ${slowest.p95.toFixed(1)} ms (target ≤ 300 ms): ${slowest.p95 <= 300 ? 'met' : 'NOT met'}`);

await stack.stop();
if (scratch.name && process.env.BENCH_KEEP_DB) console.log(`kept the scratch database ${scratch.name} (BENCH_KEEP_DB)`);
else await scratch.drop();
process.exit(0);
