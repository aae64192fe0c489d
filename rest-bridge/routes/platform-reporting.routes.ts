// Platform service (document 1): investor reporting. JWT (platform:admin) + X-Platform; query
// parameters period (7d, 30d, 90d, all_time), platform (a code) and force_refresh. Each answer is
// one JSON:API resource of type "reports" whose id names the report. Definitions: docs/reporting.md.
import { resource } from '../jsonapi.js';
import { boolParam, getParam } from '../query.js';
import type { QueryParamSpec, Route, RouteInput } from '../types.js';

const PERIOD: QueryParamSpec = { name: 'period', type: 'string', description: '7d, 30d (default), 90d or all_time' };
const PLATFORM: QueryParamSpec = { name: 'platform', type: 'string', description: 'limit the report to one platform (its code)' };
const FORCE: QueryParamSpec = { name: 'force_refresh', type: 'boolean', description: 'true: recompute instead of serving the cached report' };

const params = (r: RouteInput) => ({
  period: getParam(r.query, 'period') ?? null,
  platform: getParam(r.query, 'platform') || null,
  forceRefresh: boolParam(r.query, 'force_refresh'),
});

function report(path: string, operation: string, field: string, id: string, summary: string): Route {
  return {
    service: 'platform',
    auth: 'jwt+platform',
    method: 'GET',
    path: `/reporting/${path}`,
    operation,
    summary: `${summary} (platform:admin)`,
    query: [PERIOD, PLATFORM, FORCE],
    variables: params,
    result: (d) => ({ data: resource('reports', { id, ...d[field] }) }),
    status: 200,
    responseType: 'reports',
  };
}

export const PLATFORM_REPORTING_ROUTES: Route[] = [
  report('dashboard', 'ReportingDashboard', 'reportingDashboard', 'dashboard', 'Overview across the platforms the caller administers (all for platform:superadmin): MRR, ARR, accounts, churn, growth, usage'),
  report('revenue', 'ReportingRevenue', 'reportingRevenue', 'revenue', 'MRR, ARR, ARPA by tier, block and platform; invoicing in the period'),
  report('customers', 'ReportingCustomers', 'reportingCustomers', 'customers', 'Customer states, trials, logo and gross MRR churn, health scores'),
  report('growth', 'ReportingGrowth', 'reportingGrowth', 'growth', 'New accounts, MRR movement (new, expansion, contraction, churn), net new MRR'),
  report('engagement', 'ReportingEngagement', 'reportingEngagement', 'engagement', 'API usage, active accounts, block adoption'),
  report('platforms', 'ReportingPlatforms', 'reportingPlatforms', 'platforms', 'Breakdown per platform'),
  {
    ...report('platforms/:platform_code', 'ReportingPlatform', 'reportingPlatform', '', 'One platform in detail: summary, revenue, customers, growth, engagement'),
    query: [PERIOD, FORCE],
    variables: (r) => ({ code: r.params.platform_code, period: getParam(r.query, 'period') ?? null, forceRefresh: boolParam(r.query, 'force_refresh') }),
    result: (d, r) => ({ data: resource('reports', { id: r.params.platform_code, ...d.reportingPlatform }) }),
  },
];
