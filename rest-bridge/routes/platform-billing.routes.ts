// Platform service (document 1): the plan catalog, subscriptions and invoices. JWT + X-Platform,
// platform error shape; platform:read for reads, platform:manage for writes. Decisions (paths the
// spec does not list: show, change_plan, invoices) are documented in docs/billing.md.
import { resource } from '../jsonapi.js';
import { boolParam, getParam } from '../query.js';
import type { Route } from '../types.js';

const modelRes = (m: Record<string, unknown>) => resource('subscription_models', m, { uniqueId: true });
const subRes = (s: Record<string, unknown>) => resource('subscriptions', s, { uniqueId: true });
const invoiceRes = (i: Record<string, unknown>) => resource('invoices', i, { uniqueId: true });

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const SUB = '/accounts/:url_id/subscriptions/:subscription_id';
const INV = '/accounts/:url_id/invoices/:invoice_id';
const subVars = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id, id: r.params.subscription_id });
const invVars = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id, id: r.params.invoice_id });

function subscriptionMove(path: string, operation: string, summary: string, key: string): Route {
  return { ...base, method: 'POST', path: `${SUB}/${path}`, operation, summary, variables: subVars, result: (d) => ({ data: subRes(d[key]) }), status: 200, responseType: 'subscriptions' };
}

export const PLATFORM_BILLING_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/subscription_models',
    operation: 'ListSubscriptionModels',
    summary: 'The subscription model (plan) catalog: prices per billing cycle in cents, trial days, included blocks, limits',
    variables: () => ({}),
    result: (d) => ({ data: d.subscriptionModels.map(modelRes) }),
    status: 200,
    responseType: 'subscription_models',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/subscriptions',
    operation: 'ListSubscriptions',
    summary: 'Subscriptions of the account, newest first (canceled ones included)',
    variables: (r) => ({ accountUrlId: r.params.url_id }),
    result: (d) => ({ data: d.subscriptions.map(subRes) }),
    status: 200,
    responseType: 'subscriptions',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/subscriptions',
    operation: 'CreateSubscription',
    summary: "Subscribe the account to a model; at most one non-canceled subscription per account (409)",
    body: { type: 'subscriptions', input: 'input' },
    variables: (r) => ({ accountUrlId: r.params.url_id, input: r.attributes }),
    result: (d) => ({ data: subRes(d.createSubscription) }),
    status: 201,
    responseType: 'subscriptions',
  },
  {
    ...base,
    method: 'GET',
    path: SUB,
    operation: 'GetSubscription',
    summary: 'Show a subscription',
    variables: subVars,
    result: (d) => ({ data: subRes(d.subscription) }),
    status: 200,
    responseType: 'subscriptions',
  },
  {
    ...subscriptionMove('cancel', 'CancelSubscription', 'Cancel at the end of the current period, or now with ?immediately=true', 'cancelSubscription'),
    query: [{ name: 'immediately', type: 'boolean', description: 'true: cancel now instead of at the period end' }],
    variables: (r) => ({ ...subVars(r), immediately: boolParam(r.query, 'immediately') }),
  },
  subscriptionMove('reactivate', 'ReactivateSubscription', 'Undo a scheduled cancellation, or resume a paused subscription', 'reactivateSubscription'),
  subscriptionMove('suspend', 'SuspendSubscription', 'Pause the subscription (state paused): no billing until reactivated', 'suspendSubscription'),
  {
    ...subscriptionMove('change_plan', 'ChangeSubscriptionPlan', 'Switch model and/or billing cycle (no proration)', 'changeSubscriptionPlan'),
    body: { type: 'subscriptions', input: 'input' },
    variables: (r) => ({ ...subVars(r), input: r.attributes }),
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/invoices',
    operation: 'ListInvoices',
    summary: 'Invoices of the account, newest first; filter by ?status=due|paid|void and ?subscription_id=',
    query: [
      { name: 'status', type: 'string', description: 'due, paid or void' },
      { name: 'subscription_id', type: 'string' },
    ],
    variables: (r) => ({ accountUrlId: r.params.url_id, status: getParam(r.query, 'status') ?? null, subscriptionId: getParam(r.query, 'subscription_id') || null }),
    result: (d) => ({ data: d.invoices.map(invoiceRes) }),
    status: 200,
    responseType: 'invoices',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: INV,
    operation: 'GetInvoice',
    summary: 'Show an invoice',
    variables: invVars,
    result: (d) => ({ data: invoiceRes(d.invoice) }),
    status: 200,
    responseType: 'invoices',
  },
  {
    ...base,
    method: 'POST',
    path: `${INV}/pay`,
    operation: 'PayInvoice',
    summary: 'Record the payment of a due invoice (manual processor); a past-due subscription with nothing overdue left becomes active',
    body: { type: 'payments', input: 'input', anyType: true },
    variables: (r) => ({ ...invVars(r), input: r.attributes }),
    result: (d) => ({ data: invoiceRes(d.payInvoice) }),
    status: 200,
    responseType: 'invoices',
  },
  {
    ...base,
    method: 'POST',
    path: `${INV}/void`,
    operation: 'VoidInvoice',
    summary: 'Write off a due invoice',
    variables: invVars,
    result: (d) => ({ data: invoiceRes(d.voidInvoice) }),
    status: 200,
    responseType: 'invoices',
  },
];
