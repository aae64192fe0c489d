// Every reporting query, as raw SQL aggregated in PostgreSQL (never row loops in JS). Tenancy is
// explicit here, not a filter: each query takes the platform ids it covers (null = every platform,
// the super-admin's view; one id for a platform's report; the caller's operated platforms otherwise)
// and adds `and <alias>.platform_id in (...)` itself. Definitions: docs/reporting.md.
import type { EntityManager } from '@mikro-orm/postgresql';

const S = '"platform"';
/**
 * Recurring revenue of one subscription row (alias s) as ARR in cents, the whole number
 * subscription_events stores (annual price, or 12 × monthly); trials, paused, canceled count 0.
 * Every query sums integers; the service turns ARR into MRR (/ 12) once, at the end.
 */
const ARR = `(case when s.status in ('active', 'past_due') then case when s.billing_cycle = 'annual' then s.price_cents else s.price_cents * 12 end else 0 end)`;
/** Accounts still on the books (soft-deleted ones are left out of account counts). */
const LIVE_ACCOUNT = 'a.deleted_at is null';

type Row = Record<string, any>;
/** the platforms a report covers: null = every platform */
export type Pids = readonly string[] | null;

/** Builds one statement's parameters in the order its SQL text uses them. */
class Q {
  readonly params: unknown[] = [];
  constructor(readonly pid: Pids) {}
  /** `and <alias>.<column> in (<platform ids>)`, or nothing when the report covers every platform */
  on(alias: string, column = 'platform_id'): string {
    if (!this.pid) return '';
    return ` and ${this.within(`${alias}.${column}`, this.pid)}`;
  }
  /** `<column> in (?, ...)`; `false` for no platform at all */
  within(column: string, ids: readonly string[]): string {
    if (!ids.length) return 'false';
    return `${column} in (${ids.map((id) => this.v(id)).join(', ')})`;
  }
  after(col: string, start: Date | null): string {
    if (!start) return '';
    this.params.push(start);
    return ` and ${col} > ?`;
  }
  v(value: unknown): string {
    this.params.push(value);
    return '?';
  }
}

export class ReportingRepository {
  constructor(private em: EntityManager) {}

  private async rows(sql: string, q: Q): Promise<Row[]> {
    return (await this.em.getConnection().execute(sql, q.params)) as Row[];
  }
  private async one(sql: string, q: Q): Promise<Row> {
    return (await this.rows(sql, q))[0] ?? {};
  }

  async platformByCode(code: string): Promise<Row | null> {
    const q = new Q(null);
    return (await this.rows(`select id, code, name, status, created_at from ${S}.platforms where code = ${q.v(code)}`, q))[0] ?? null;
  }

  async platformCount(pid: Pids): Promise<number> {
    const q = new Q(null);
    const where = pid ? ` where ${q.within('id', pid)}` : '';
    return Number((await this.one(`select count(*)::int as n from ${S}.platforms${where}`, q)).n ?? 0);
  }

  /** Paying subscriptions now (revenue > 0, as ARR cents), grouped: total, by tier, by platform. */
  async revenueNow(pid: Pids): Promise<{ total: Row; byTier: Row[]; byPlatform: Row[] }> {
    const q = new Q(pid);
    const rows = await this.rows(
      `with paying as (
         select s.account_id, s.platform_id, s.model_id, ${ARR} as arr
           from ${S}.subscriptions s
          where s.status in ('active', 'past_due') and s.price_cents > 0${q.on('s')})
       select grouping(p.platform_id) as g_platform, grouping(p.model_id) as g_model, p.platform_id, p.model_id,
              count(distinct p.account_id)::int as paying, coalesce(sum(p.arr), 0)::float8 as arr
         from paying p
        group by grouping sets ((), (p.platform_id), (p.model_id))`,
      q,
    );
    return {
      total: rows.find((r) => r.g_platform === 1 && r.g_model === 1) ?? { paying: 0, arr: 0 },
      byTier: rows.filter((r) => r.g_platform === 1 && r.g_model === 0),
      byPlatform: rows.filter((r) => r.g_platform === 0 && r.g_model === 1),
    };
  }

  /**
   * Paying accounts and revenue (ARR cents) per block of their plan (a plan's whole revenue counts for each block
   * it includes). Aggregated per plan first, then spread over the plans' blocks: an account has at most
   * one live subscription, so per-plan account counts add up exactly.
   */
  async revenueByBlock(pid: Pids): Promise<Row[]> {
    const q = new Q(pid);
    return this.rows(
      `with per_model as (
         select s.model_id, count(distinct s.account_id) as paying, sum(${ARR}) as arr
           from ${S}.subscriptions s
          where s.status in ('active', 'past_due') and s.price_cents > 0${q.on('s')}
          group by s.model_id)
       select b.block, sum(pm.paying)::int as paying, sum(pm.arr)::float8 as arr
         from per_model pm join ${S}.subscription_models m on m.id = pm.model_id
         cross join lateral unnest(m.included_blocks) as b(block)
        group by b.block order by b.block`,
      q,
    );
  }

  async models(): Promise<Row[]> {
    return this.rows(`select id, code, name, included_blocks from ${S}.subscription_models order by position, code`, new Q(null));
  }

  async platforms(pid: Pids): Promise<Row[]> {
    const q = new Q(null);
    const where = pid ? ` where ${q.within('id', pid)}` : '';
    return this.rows(`select id, code, name, status, created_at from ${S}.platforms${where} order by code`, q);
  }

  /** Invoiced and collected in the period; outstanding and overdue now. */
  async invoiceTotals(pid: Pids, start: Date | null, now: Date): Promise<Row> {
    const q = new Q(pid);
    const since = (col: string) => (start ? ` and ${col} > ${q.v(start)}` : '');
    return this.one(
      `select coalesce(sum(i.amount_cents) filter (where i.status <> 'void'${since('i.issued_at')}), 0)::float8 as invoiced,
              coalesce(sum(i.amount_cents) filter (where i.status = 'paid'${since('i.paid_at')}), 0)::float8 as collected,
              coalesce(sum(i.amount_cents) filter (where i.status = 'due'), 0)::float8 as outstanding,
              coalesce(sum(i.amount_cents) filter (where i.status = 'due' and i.due_at <= ${q.v(now)}), 0)::float8 as overdue
         from ${S}.invoices i where true${q.on('i')}`,
      q,
    );
  }

  /** Revenue movement in the period from the history (ARR cents): sums of |Δ| per movement, and the net change. */
  async movement(pid: Pids, start: Date | null): Promise<Row> {
    const q = new Q(pid);
    return this.one(
      `select coalesce(sum(e.arr_after_cents - e.arr_before_cents) filter (where e.movement = 'new'), 0)::float8 as new,
              coalesce(sum(e.arr_after_cents - e.arr_before_cents) filter (where e.movement = 'expansion'), 0)::float8 as expansion,
              coalesce(sum(e.arr_before_cents - e.arr_after_cents) filter (where e.movement = 'contraction'), 0)::float8 as contraction,
              coalesce(sum(e.arr_before_cents - e.arr_after_cents) filter (where e.movement = 'churn'), 0)::float8 as churn,
              coalesce(sum(e.arr_after_cents - e.arr_before_cents) filter (where e.movement = 'reactivation'), 0)::float8 as reactivation,
              coalesce(sum(e.arr_after_cents - e.arr_before_cents), 0)::float8 as net,
              count(*) filter (where e.type = 'convert_trial')::int as trials_converted,
              count(*) filter (where e.from_status = 'trialing' and e.to_status = 'canceled')::int as trials_lost
         from ${S}.subscription_events e
        where true${q.on('e')}${q.after('e.occurred_at', start)}`,
      q,
    );
  }

  /**
   * Logo churn cohort: each account's revenue now and at the period start (now minus the changes since),
   * so "paying at start" and "not paying now" need no snapshots. With no start (all time) the cohort
   * is every account that ever had MRR.
   */
  async churnCohort(pid: Pids, start: Date | null): Promise<Row> {
    const q = new Q(pid);
    if (start) {
      // only subscriptions with MRR now or a change in the period can have had MRR at the start
      return this.one(
        `with d as (select e.subscription_id, e.account_id, sum(e.arr_after_cents - e.arr_before_cents) as delta from ${S}.subscription_events e
                     where true${q.on('e')}${q.after('e.occurred_at', start)} group by 1, 2),
              n as (select s.id, s.account_id, ${ARR} as arr_now from ${S}.subscriptions s
                     where s.status in ('active', 'past_due') and s.price_cents > 0${q.on('s')}),
              acc as (select coalesce(n.account_id, d.account_id) as account_id, sum(coalesce(n.arr_now, 0)) as arr_now,
                             sum(coalesce(n.arr_now, 0) - coalesce(d.delta, 0)) as arr_start
                        from n full join d on d.subscription_id = n.id group by 1)
         select count(*) filter (where arr_start > 0)::int as cohort,
                count(*) filter (where arr_start > 0 and arr_now = 0)::int as churned,
                coalesce(sum(arr_start) filter (where arr_start > 0), 0)::float8 as arr_start
           from acc`,
        q,
      );
    }
    return this.one(
      `with ever as (select distinct e.account_id from ${S}.subscription_events e where e.arr_after_cents > 0${q.on('e')}),
            n as (select distinct s.account_id from ${S}.subscriptions s where s.status in ('active', 'past_due') and s.price_cents > 0${q.on('s')})
       select count(*)::int as cohort, count(*) filter (where n.account_id is null)::int as churned, 0::float8 as arr_start
         from ever left join n on n.account_id = ever.account_id`,
      q,
    );
  }

  /** Live accounts by the state of their live subscription; new accounts in the period. */
  async accountStates(pid: Pids, start: Date | null): Promise<Row> {
    const q = new Q(pid);
    const created = start ? `a.created_at > ${q.v(start)}` : 'true';
    return this.one(
      `select count(*)::int as total,
              count(*) filter (where ${created})::int as new,
              count(*) filter (where s.status = 'trialing')::int as trialing,
              count(*) filter (where s.status in ('active', 'past_due') and s.price_cents > 0)::int as paying,
              count(*) filter (where s.status = 'past_due')::int as past_due,
              count(*) filter (where s.status = 'paused')::int as paused,
              count(*) filter (where s.id is null and exists (select 1 from ${S}.subscriptions c where c.account_id = a.id))::int as churned,
              count(*) filter (where (s.id is null and not exists (select 1 from ${S}.subscriptions c where c.account_id = a.id))
                                  or (s.status = 'active' and s.price_cents = 0))::int as free
         from ${S}.accounts a
         left join ${S}.subscriptions s on s.account_id = a.id and s.status <> 'canceled'
        where ${LIVE_ACCOUNT}${q.on('a')}`,
      q,
    );
  }

  async subscriptionStarts(pid: Pids, start: Date | null): Promise<Row> {
    const q = new Q(pid);
    return this.one(
      `select count(*)::int as subscriptions, count(*) filter (where s.trial_start is not null)::int as trials
         from ${S}.subscriptions s where true${q.on('s')}${q.after('s.created_at', start)}`,
      q,
    );
  }

  /**
   * Health score per live account (0–100, docs/reporting.md): subscription state 40, API usage 30
   * (10 points per decade of requests), recency of use 20, nothing overdue 10. Returns the
   * distribution and the lowest-scoring paying accounts.
   */
  async health(pid: Pids, now: Date, limit = 10): Promise<{ summary: Row; lowest: Row[] }> {
    const q = new Q(pid);
    const scored = `
      with usage as (
        select ap.account_id, sum(k.usage_count) as requests, max(k.last_used_at) as last_used
          from ${S}.api_keys k join ${S}.apps ap on ap.id = k.app_id
         where k.revoked_at is null${q.on('k')} group by ap.account_id),
      overdue as (
        select distinct i.account_id from ${S}.invoices i where i.status = 'due' and i.due_at <= ${q.v(now)}${q.on('i')}),
      scored as (
        select a.id, a.code, a.platform_id, coalesce(m.code, 'free') as plan, (s.status in ('active', 'past_due') and s.price_cents > 0) as paying,
               (case s.status when 'active' then 40 when 'trialing' then 30 when 'past_due' then 10 when 'paused' then 5 else 0 end)
             + least(30, floor(10 * log(1 + coalesce(u.requests, 0)::float8)))::int
             + (case when u.last_used > ${q.v(now)}::timestamptz - interval '7 days' then 20
                     when u.last_used > ${q.v(now)}::timestamptz - interval '30 days' then 10 else 0 end)
             + (case when o.account_id is null then 10 else 0 end) as score
          from ${S}.accounts a
          left join ${S}.subscriptions s on s.account_id = a.id and s.status <> 'canceled'
          left join ${S}.subscription_models m on m.id = s.model_id
          left join usage u on u.account_id = a.id
          left join overdue o on o.account_id = a.id
         where ${LIVE_ACCOUNT}${q.on('a')})`;
    const row = await this.one(
      `${scored}
       select coalesce(avg(score), 0)::float8 as average, count(*) filter (where score >= 70)::int as healthy,
              count(*) filter (where score >= 40 and score < 70)::int as at_risk, count(*) filter (where score < 40)::int as critical,
              coalesce(avg(score) filter (where paying), 0)::float8 as average_paying,
              (select coalesce(json_agg(l order by l.score, l.code), '[]'::json)
                 from (select sc.id, sc.code, p.code as platform, sc.plan, sc.score
                         from scored sc join ${S}.platforms p on p.id = sc.platform_id
                        where sc.paying and sc.score < 70 order by sc.score, sc.code limit ${Number(limit)}) l) as lowest
         from scored`,
      q,
    );
    const { lowest, ...summary } = row;
    return { summary, lowest: (typeof lowest === 'string' ? JSON.parse(lowest) : lowest) as Row[] };
  }

  /** Net new revenue (ARR cents) and new accounts per bucket (day, week or month, UTC). */
  async series(pid: Pids, start: Date | null, unit: 'day' | 'week' | 'month'): Promise<Row[]> {
    const q = new Q(pid);
    const u = q.v(unit);
    const mrr = `select date_trunc(${u}, e.occurred_at at time zone 'UTC') at time zone 'UTC' as bucket, sum(e.arr_after_cents - e.arr_before_cents) as net, 0 as accounts
                   from ${S}.subscription_events e where true${q.on('e')}${q.after('e.occurred_at', start)} group by 1`;
    const u2 = q.v(unit);
    const acc = `select date_trunc(${u2}, a.created_at at time zone 'UTC') at time zone 'UTC' as bucket, 0 as net, count(*) as accounts
                   from ${S}.accounts a where ${LIVE_ACCOUNT}${q.on('a')}${q.after('a.created_at', start)} group by 1`;
    return this.rows(
      `select bucket, sum(net)::float8 as net, sum(accounts)::int as accounts from (${mrr} union all ${acc}) x group by bucket order by bucket`,
      q,
    );
  }

  /** API usage from the keys' counters (cumulative), activity from last_used_at. */
  async usage(pid: Pids, start: Date | null): Promise<Row> {
    const q = new Q(pid);
    // one parameter per use: placeholders are positional
    const used = () => (start ? `k.last_used_at > ${q.v(start)}` : 'k.last_used_at is not null');
    return this.one(
      `select coalesce(sum(k.usage_count), 0)::float8 as requests,
              count(distinct ap.account_id) filter (where ${used()})::int as active_accounts,
              count(distinct k.app_id) filter (where ${used()})::int as active_apps,
              count(*) filter (where ${used()})::int as keys_used,
              count(*)::int as keys
         from ${S}.api_keys k join ${S}.apps ap on ap.id = k.app_id join ${S}.accounts a on a.id = ap.account_id
        where k.revoked_at is null and ${LIVE_ACCOUNT}${q.on('k')}`,
      q,
    );
  }

  async appCount(pid: Pids): Promise<number> {
    const q = new Q(pid);
    return Number((await this.one(`select count(*)::int as n from ${S}.apps ap join ${S}.accounts a on a.id = ap.account_id where ${LIVE_ACCOUNT}${q.on('ap')}`, q)).n ?? 0);
  }

  async topAccountsByRequests(pid: Pids, limit = 10): Promise<Row[]> {
    const q = new Q(pid);
    return this.rows(
      `select a.id, a.code, p.code as platform, sum(k.usage_count)::float8 as requests
         from ${S}.api_keys k join ${S}.apps ap on ap.id = k.app_id join ${S}.accounts a on a.id = ap.account_id
         join ${S}.platforms p on p.id = a.platform_id
        where k.revoked_at is null and ${LIVE_ACCOUNT}${q.on('k')}
        group by a.id, a.code, p.code having sum(k.usage_count) > 0 order by requests desc, a.code limit ${Number(limit)}`,
      q,
    );
  }

  /**
   * Every catalog block (catalog order) with the live accounts holding a license of it and the live
   * apps it is provisioned to: what accounts turned on, not what their plan entitles them to.
   */
  async blockAdoption(pid: Pids): Promise<Row[]> {
    const q = new Q(pid);
    const licensed = `select l.block_id, count(*)::int as accounts
                        from ${S}.block_licenses l join ${S}.accounts a on a.id = l.account_id
                       where ${LIVE_ACCOUNT}${q.on('l')} group by l.block_id`;
    const provisioned = `select i.block_id, count(*)::int as apps
                           from ${S}.block_instances i join ${S}.apps ap on ap.id = i.app_id join ${S}.accounts a on a.id = i.account_id
                          where ${LIVE_ACCOUNT} and ap.deleted_at is null${q.on('i')} group by i.block_id`;
    return this.rows(
      `select b.code as block, coalesce(l.accounts, 0) as accounts, coalesce(i.apps, 0) as apps
         from ${S}.blocks b left join (${licensed}) l on l.block_id = b.id left join (${provisioned}) i on i.block_id = b.id
        order by b.position, b.code`,
      q,
    );
  }

  /** Per platform: accounts (total, new), trialing, net new revenue (ARR cents), API requests. Current revenue comes from revenueNow. */
  async perPlatform(pid: Pids, start: Date | null): Promise<Row[]> {
    const q = new Q(pid);
    const created = start ? `a.created_at > ${q.v(start)}` : 'true';
    const accounts = `select a.platform_id, count(*)::int as total, count(*) filter (where ${created})::int as new,
                             count(s.id) filter (where s.status = 'trialing')::int as trialing
                        from ${S}.accounts a left join ${S}.subscriptions s on s.account_id = a.id and s.status <> 'canceled'
                       where ${LIVE_ACCOUNT}${q.on('a')} group by a.platform_id`;
    const net = `select e.platform_id, sum(e.arr_after_cents - e.arr_before_cents) as net from ${S}.subscription_events e
                  where true${q.on('e')}${q.after('e.occurred_at', start)} group by e.platform_id`;
    const req = `select k.platform_id, sum(k.usage_count) as requests from ${S}.api_keys k where k.revoked_at is null${q.on('k')} group by k.platform_id`;
    return this.rows(
      `select p.id, p.code, p.name, p.status, coalesce(ac.total, 0) as total, coalesce(ac.new, 0) as new, coalesce(ac.trialing, 0) as trialing,
              coalesce(n.net, 0)::float8 as net, coalesce(r.requests, 0)::float8 as requests
         from ${S}.platforms p left join (${accounts}) ac on ac.platform_id = p.id
         left join (${net}) n on n.platform_id = p.id left join (${req}) r on r.platform_id = p.id
        where true${q.on('p', 'id')}
        order by p.code`,
      q,
    );
  }
}
