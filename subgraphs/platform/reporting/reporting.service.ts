// The investor reports: numbers from ReportingRepository's SQL, assembled and cached per
// (report, period, platforms covered). platform:admin only (the resolver checks it). A report covers
// the platforms the caller administers (platforms/platform-access.ts: every platform for a super-admin,
// the bound one for a `platform` claim, else those whose operator record grants platform:admin):
// asking for another answers 404, like any foreign record.
import { createHash } from 'node:crypto';
import { systemClock } from '../../../lib/clock.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { cachedReport } from './reporting.cache.js';
import { ReportingRepository, type Pids } from './reporting.repository.js';
import { operatedPlatformIds } from '../platforms/platform-access.js';
import { cents, fillSeries, mrrOf, parsePeriod, rate, windowOf, type ReportWindow } from './reporting.rules.js';
import type {
  CustomersReport,
  DashboardReport,
  EngagementReport,
  GrowthReport,
  PlatformDetailReport,
  PlatformsReport,
  PlatformSummary,
  ReportHeader,
  RevenueReport,
} from './reporting.type.js';

export interface ReportArgs {
  period?: string | null;
  platform?: string | null;
  forceRefresh?: boolean | null;
}

interface Scope {
  pid: Pids;
  code: string | null;
}

type Body<T> = Omit<T, keyof ReportHeader>;
type Built<T> = T & { cached: boolean };

async function resolveScope(ctx: PlatformContext, repo: ReportingRepository, requested: string | null | undefined): Promise<Scope> {
  const bound = ctx.tenant.boundPlatform;
  let code = requested?.trim() || null;
  const notFound = (c: string) => new DomainError('PLATFORM_NOT_FOUND', `Platform "${c}" not found`, { parameter: 'platform' });
  if (bound) {
    if (code && code !== bound) throw notFound(code);
    code = bound;
  }
  const operated = await operatedPlatformIds(ctx.em, ctx.tenant, 'platform:admin');
  if (!code) return { pid: operated, code: null };
  const row = await repo.platformByCode(code);
  if (!row || (operated && !operated.includes(row.id as string))) throw notFound(code);
  return { pid: [row.id as string], code };
}

/** Resolve parameters, then serve the report from the cache or compute it. */
async function serve<T extends object>(ctx: PlatformContext, report: string, args: ReportArgs, build: (repo: ReportingRepository, scope: Scope, w: ReportWindow) => Promise<Body<T>>): Promise<Built<T>> {
  const period = parsePeriod(args.period);
  const repo = new ReportingRepository(ctx.em);
  const scope = await resolveScope(ctx, repo, args.platform);
  const covered = scope.code ?? (scope.pid ? `ops:${createHash('sha256').update([...scope.pid].sort().join(',')).digest('base64url')}` : '*');
  const key = `${report}|${period}|${covered}`;
  return cachedReport(key, !!args.forceRefresh, async () => {
    const w = windowOf(period, systemClock.now());
    const body = await build(repo, scope, w);
    return { ...header(w, scope), ...body } as T;
  }) as Promise<Built<T>>;
}

function header(w: ReportWindow, scope: Scope): Omit<ReportHeader, 'cached'> {
  return { period: w.period, platform: scope.code, generatedAt: w.now, currency: 'USD' };
}

export const revenue = (ctx: PlatformContext, args: ReportArgs) => serve<RevenueReport>(ctx, 'revenue', args, buildRevenue);
export const customers = (ctx: PlatformContext, args: ReportArgs) => serve<CustomersReport>(ctx, 'customers', args, buildCustomers);
export const growth = (ctx: PlatformContext, args: ReportArgs) => serve<GrowthReport>(ctx, 'growth', args, buildGrowth);
export const engagement = (ctx: PlatformContext, args: ReportArgs) => serve<EngagementReport>(ctx, 'engagement', args, buildEngagement);
export const dashboard = (ctx: PlatformContext, args: ReportArgs) => serve<DashboardReport>(ctx, 'dashboard', args, buildDashboard);
export const platforms = (ctx: PlatformContext, args: ReportArgs) => serve<PlatformsReport>(ctx, 'platforms', args, buildPlatforms);

/** One platform in detail; `code` comes from the path (the `platform` parameter does not apply). */
export function platformDetail(ctx: PlatformContext, code: string, args: ReportArgs): Promise<Built<PlatformDetailReport>> {
  return serve<PlatformDetailReport>(ctx, 'platform', { ...args, platform: code }, async (repo, scope, w) => {
    const [summary] = await summaries(repo, scope, w);
    const h = { ...header(w, scope), cached: false };
    const [rev, cus, gro, eng] = await Promise.all([buildRevenue(repo, scope, w), buildCustomers(repo, scope, w), buildGrowth(repo, scope, w), buildEngagement(repo, scope, w)]);
    return { summary, revenue: { ...h, ...rev }, customers: { ...h, ...cus }, growth: { ...h, ...gro }, engagement: { ...h, ...eng } };
  });
}

async function buildRevenue(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<Body<RevenueReport>> {
  const [now, blocks, models, plats, inv, mov] = await Promise.all([
    repo.revenueNow(pid),
    repo.revenueByBlock(pid),
    repo.models(),
    repo.platforms(pid),
    repo.invoiceTotals(pid, w.start, w.now),
    repo.movement(pid, w.start),
  ]);
  const mrr = mrrOf(now.total.arr);
  const paying = Number(now.total.paying ?? 0);
  const mrrStart = w.start ? mrr - mrrOf(mov.net) : 0;
  const tierRows = new Map(now.byTier.map((r) => [r.model_id, r]));
  const platRows = new Map(now.byPlatform.map((r) => [r.platform_id, r]));
  const blockRows = new Map(blocks.map((r) => [r.block, r]));
  return {
    mrrCents: cents(mrr),
    arrCents: cents(mrr * 12),
    payingAccounts: paying,
    arpaCents: paying ? cents(mrr / paying) : 0,
    mrrAtPeriodStartCents: cents(mrrStart),
    mrrGrowthRate: w.start ? rate(mrr - mrrStart, mrrStart) : null,
    invoicedCents: cents(inv.invoiced),
    collectedCents: cents(inv.collected),
    outstandingCents: cents(inv.outstanding),
    overdueCents: cents(inv.overdue),
    byTier: models.map((m) => {
      const r = tierRows.get(m.id);
      const n = Number(r?.paying ?? 0);
      const v = mrrOf(r?.arr);
      return { tier: m.code, name: m.name, payingAccounts: n, mrrCents: cents(v), arrCents: cents(v * 12), arpaCents: n ? cents(v / n) : 0, share: rate(v, mrr) };
    }),
    byBlock: allBlocks(models).map((b) => {
      const r = blockRows.get(b);
      const n = Number(r?.paying ?? 0);
      const v = mrrOf(r?.arr);
      return { block: b, payingAccounts: n, mrrCents: cents(v), arpaCents: n ? cents(v / n) : 0 };
    }),
    byPlatform: plats.map((p) => {
      const r = platRows.get(p.id);
      const n = Number(r?.paying ?? 0);
      const v = mrrOf(r?.arr);
      return { platform: p.code, name: p.name, payingAccounts: n, mrrCents: cents(v), arrCents: cents(v * 12), arpaCents: n ? cents(v / n) : 0 };
    }),
  };
}

function allBlocks(models: Record<string, any>[]): string[] {
  return [...new Set(models.flatMap((m) => m.included_blocks as string[]))].sort();
}

async function buildCustomers(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<Body<CustomersReport>> {
  const [states, cohort, mov, starts, health] = await Promise.all([
    repo.accountStates(pid, w.start),
    repo.churnCohort(pid, w.start),
    repo.movement(pid, w.start),
    repo.subscriptionStarts(pid, w.start),
    repo.health(pid, w.now),
  ]);
  const lost = Number(mov.churn) + Number(mov.contraction);
  const gained = Number(mov.new) + Number(mov.expansion) + Number(mov.reactivation);
  return {
    totalAccounts: states.total,
    trialingAccounts: states.trialing,
    payingAccounts: states.paying,
    pastDueAccounts: states.past_due,
    pausedAccounts: states.paused,
    freeAccounts: states.free,
    churnedAccounts: states.churned,
    trials: { started: starts.trials, converted: mov.trials_converted, lost: mov.trials_lost, conversionRate: rate(mov.trials_converted, mov.trials_converted + mov.trials_lost) },
    churn: {
      payingAtPeriodStart: cohort.cohort,
      churnedAccounts: cohort.churned,
      logoChurnRate: rate(cohort.churned, cohort.cohort),
      churnedMrrCents: cents(mrrOf(mov.churn)),
      contractionMrrCents: cents(mrrOf(mov.contraction)),
      grossMrrChurnRate: w.start ? rate(lost, Number(cohort.arr_start)) : rate(lost, gained),
    },
    health: {
      averageScore: Math.round(Number(health.summary.average) * 10) / 10,
      averagePayingScore: Math.round(Number(health.summary.average_paying) * 10) / 10,
      healthy: health.summary.healthy,
      atRisk: health.summary.at_risk,
      critical: health.summary.critical,
      lowestPaying: health.lowest.map((r) => ({ accountId: r.id, code: r.code, platform: r.platform, plan: r.plan, score: Number(r.score) })),
    },
  };
}

async function buildGrowth(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<Body<GrowthReport>> {
  const [states, starts, mov, now, series] = await Promise.all([
    repo.accountStates(pid, w.start),
    repo.subscriptionStarts(pid, w.start),
    repo.movement(pid, w.start),
    repo.revenueNow(pid),
    repo.series(pid, w.start, w.unit),
  ]);
  const mrr = mrrOf(now.total.arr);
  const points = series.map((r) => ({ bucket: new Date(r.bucket), newAccounts: Number(r.accounts), netNewMrrCents: cents(mrrOf(r.net)) }));
  const from = w.start ?? points[0]?.bucket ?? w.now;
  return {
    newAccounts: states.new,
    accountsAtPeriodStart: states.total - states.new,
    totalAccounts: states.total,
    accountGrowthRate: w.start ? rate(states.new, states.total - states.new) : null,
    newSubscriptions: starts.subscriptions,
    newTrials: starts.trials,
    mrrMovement: {
      newCents: cents(mrrOf(mov.new)),
      expansionCents: cents(mrrOf(mov.expansion)),
      contractionCents: cents(mrrOf(mov.contraction)),
      churnCents: cents(mrrOf(mov.churn)),
      reactivationCents: cents(mrrOf(mov.reactivation)),
      netNewCents: cents(mrrOf(mov.net)),
    },
    mrrAtPeriodStartCents: cents(w.start ? mrr - mrrOf(mov.net) : 0),
    mrrCents: cents(mrr),
    bucketUnit: w.unit,
    series: fillSeries(points, from, w.now, w.unit, (bucket) => ({ bucket, newAccounts: 0, netNewMrrCents: 0 })),
  };
}

async function buildEngagement(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<Body<EngagementReport>> {
  const [usage, apps, states, adoption, top] = await Promise.all([
    repo.usage(pid, w.start),
    repo.appCount(pid),
    repo.accountStates(pid, null),
    repo.blockAdoption(pid),
    repo.topAccountsByRequests(pid),
  ]);
  return {
    apiRequests: Number(usage.requests),
    totalAccounts: states.total,
    activeAccounts: usage.active_accounts,
    activeAccountRate: rate(usage.active_accounts, states.total),
    totalApps: apps,
    activeApps: usage.active_apps,
    totalKeys: usage.keys,
    keysUsed: usage.keys_used,
    requestsPerAccount: states.total ? Math.round((Number(usage.requests) / states.total) * 100) / 100 : null,
    blockAdoption: adoption.map((r) => ({ block: r.block, accounts: r.accounts, apps: r.apps, adoptionRate: rate(r.accounts, states.total) })),
    topAccounts: top.map((r) => ({ accountId: r.id, code: r.code, platform: r.platform, requests: Number(r.requests) })),
  };
}

async function summaries(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<PlatformSummary[]> {
  const [rows, now] = await Promise.all([repo.perPlatform(pid, w.start), repo.revenueNow(pid)]);
  const paying = new Map(now.byPlatform.map((r) => [r.platform_id, r]));
  return rows.map((p) => {
    const m = paying.get(p.id);
    const n = Number(m?.paying ?? 0);
    const v = mrrOf(m?.arr);
    return {
      code: p.code,
      name: p.name,
      status: p.status,
      totalAccounts: Number(p.total),
      newAccounts: Number(p.new),
      payingAccounts: n,
      trialingAccounts: Number(p.trialing),
      mrrCents: cents(v),
      arrCents: cents(v * 12),
      arpaCents: n ? cents(v / n) : 0,
      netNewMrrCents: cents(mrrOf(p.net)),
      apiRequests: Number(p.requests),
    };
  });
}

async function buildPlatforms(repo: ReportingRepository, scope: Scope, w: ReportWindow): Promise<Body<PlatformsReport>> {
  return { platforms: await summaries(repo, scope, w) };
}

async function buildDashboard(repo: ReportingRepository, { pid }: Scope, w: ReportWindow): Promise<Body<DashboardReport>> {
  const [count, now, states, mov, cohort, usage] = await Promise.all([
    repo.platformCount(pid),
    repo.revenueNow(pid),
    repo.accountStates(pid, w.start),
    repo.movement(pid, w.start),
    repo.churnCohort(pid, w.start),
    repo.usage(pid, w.start),
  ]);
  const mrr = mrrOf(now.total.arr);
  const paying = Number(now.total.paying ?? 0);
  const mrrStart = w.start ? mrr - mrrOf(mov.net) : 0;
  const lost = Number(mov.churn) + Number(mov.contraction);
  const gained = Number(mov.new) + Number(mov.expansion) + Number(mov.reactivation);
  return {
    platforms: count,
    totalAccounts: states.total,
    newAccounts: states.new,
    payingAccounts: paying,
    trialingAccounts: states.trialing,
    mrrCents: cents(mrr),
    arrCents: cents(mrr * 12),
    arpaCents: paying ? cents(mrr / paying) : 0,
    netNewMrrCents: cents(mrrOf(mov.net)),
    mrrGrowthRate: w.start ? rate(mrr - mrrStart, mrrStart) : null,
    logoChurnRate: rate(cohort.churned, cohort.cohort),
    grossMrrChurnRate: w.start ? rate(lost, Number(cohort.arr_start)) : rate(lost, gained),
    trialConversionRate: rate(mov.trials_converted, mov.trials_converted + mov.trials_lost),
    apiRequests: Number(usage.requests),
    activeAccounts: usage.active_accounts,
  };
}
