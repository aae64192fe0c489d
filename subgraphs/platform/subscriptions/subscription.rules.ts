// The subscription state machine, billing periods and MRR, as pure functions (no I/O, no clock):
// the service and the renewal job both move subscriptions ONLY through `transition`, so the table
// below is the whole truth about which moves are legal. docs/billing.md documents it for users.
//
// States (Stripe's vocabulary):
//   trialing  in a free trial; no invoice yet, no MRR
//   active    paid (or free) and current
//   past_due  an invoice is overdue; still counted in MRR and the plan still applies (grace)
//   paused    suspended: no billing, no MRR, the period is frozen; the plan falls back to free
//   canceled  final; a new subscription must be created
// `cancelAtPeriodEnd` is a flag on the three running states: the renewal job ends the subscription
// instead of renewing it.

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const BILLING_CYCLES = ['monthly', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Statuses in which the subscription's plan applies (tenant context, plan limits). */
export const PLAN_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];
/** Statuses that count towards MRR. */
export const REVENUE_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due'];

/** Days between an invoice's issue and its due date (manual processor: payment on terms). */
export const INVOICE_NET_DAYS = 7;
export const DAY_MS = 86_400_000;

export type Move =
  /** API: end at the end of the current period (default cancel) */
  | 'cancel'
  /** API: end now */
  | 'cancel_now'
  /** API: undo a scheduled cancellation, or resume a paused subscription */
  | 'reactivate'
  /** API: pause (suspend) */
  | 'suspend'
  /** API: switch model and/or billing cycle */
  | 'change_plan'
  /** job: the trial is over; the first paid period starts */
  | 'convert_trial'
  /** job: a new period starts */
  | 'renew'
  /** job: the period ended with cancellation scheduled (or auto_renew off) */
  | 'expire'
  /** job: an invoice passed its due date unpaid */
  | 'become_past_due'
  /** payment (or void) left nothing overdue */
  | 'settle'
  /** job: still past due when the period ended: dunning exhausted */
  | 'lapse';

export interface SubscriptionState {
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
}

export interface ResumeInfo {
  /** for `reactivate` from paused: is the trial still running? */
  trialRunning?: boolean;
}

export type TransitionResult = { ok: true; state: SubscriptionState } | { ok: false; reason: string };

const RUNNING: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

function ok(status: SubscriptionStatus, cancelAtPeriodEnd: boolean): TransitionResult {
  return { ok: true, state: { status, cancelAtPeriodEnd } };
}
function no(reason: string): TransitionResult {
  return { ok: false, reason };
}

/**
 * The state machine. Every row, move by move:
 *
 * | from \ move    | cancel            | cancel_now | reactivate                 | suspend | change_plan | convert_trial | renew  | expire   | become_past_due | settle | lapse    |
 * |----------------|-------------------|------------|----------------------------|---------|-------------|---------------|--------|----------|-----------------|--------|----------|
 * | trialing       | flag on           | canceled   | flag off (409 if not set)  | paused  | trialing    | active        | 409    | canceled | 409             | 409    | 409      |
 * | active         | flag on           | canceled   | flag off (409 if not set)  | paused  | active      | 409           | active | canceled | past_due        | 409    | 409      |
 * | past_due       | flag on           | canceled   | flag off (409 if not set)  | paused  | past_due    | 409           | 409    | canceled | 409             | active | canceled |
 * | paused         | canceled (no period to wait for) | canceled | trialing or active, flag off | 409 | 409 | 409 | 409 | 409 | 409 | 409 | 409 |
 * | canceled       | 409 (final: create a new subscription) for every move                                                                                    |
 *
 * `cancel` when the flag is already on is a 409 too (nothing would change).
 */
export function transition(from: SubscriptionState, move: Move, info: ResumeInfo = {}): TransitionResult {
  const { status, cancelAtPeriodEnd: flag } = from;
  if (status === 'canceled') return no('the subscription is canceled, which is final: create a new subscription');

  if (status === 'paused') {
    switch (move) {
      case 'cancel':
      case 'cancel_now':
        return ok('canceled', false);
      case 'reactivate':
        return ok(info.trialRunning ? 'trialing' : 'active', false);
      case 'suspend':
        return no('the subscription is already paused');
      default:
        return no(`a paused subscription cannot ${label(move)}: reactivate it first`);
    }
  }

  // trialing, active, past_due
  switch (move) {
    case 'cancel':
      return flag ? no('the subscription is already scheduled to cancel at the end of its period') : ok(status, true);
    case 'cancel_now':
      return ok('canceled', false);
    case 'reactivate':
      if (flag) return ok(status, false);
      return no(
        status === 'past_due'
          ? 'the subscription is past due, not canceled or paused: pay the overdue invoice to make it active'
          : `the subscription is already ${status} and not scheduled to cancel`,
      );
    case 'suspend':
      return ok('paused', flag);
    case 'change_plan':
      return ok(status, flag);
    case 'convert_trial':
      return status === 'trialing' ? ok('active', flag) : no(`only a trialing subscription can convert (it is ${status})`);
    case 'renew':
      return status === 'active' ? ok('active', flag) : no(`only an active subscription renews (it is ${status})`);
    case 'expire':
      return ok('canceled', false);
    case 'become_past_due':
      return status === 'active' ? ok('past_due', flag) : no(`only an active subscription can become past due (it is ${status})`);
    case 'settle':
      return status === 'past_due' ? ok('active', flag) : no(`only a past-due subscription settles (it is ${status})`);
    case 'lapse':
      return status === 'past_due' ? ok('canceled', false) : no(`only a past-due subscription lapses (it is ${status})`);
  }
}

function label(move: Move): string {
  return move.replace(/_/g, ' ');
}

export function isRunning(status: SubscriptionStatus): boolean {
  return RUNNING.includes(status);
}

// ---------------------------------------------------------------------------------------------
// Money

/**
 * Annual recurring revenue of one subscription in cents: a whole number (annual price, or 12 × the
 * monthly price), so history rows and SQL sums stay exact integers. Trials, paused and canceled count 0.
 */
export function arrOf(status: SubscriptionStatus, cycle: BillingCycle, priceCents: number): number {
  if (!REVENUE_STATUSES.includes(status)) return 0;
  return cycle === 'annual' ? priceCents : priceCents * 12;
}

/** Monthly recurring revenue in (fractional) cents: ARR / 12, i.e. annual prices / 12. */
export function mrrOf(status: SubscriptionStatus, cycle: BillingCycle, priceCents: number): number {
  return arrOf(status, cycle, priceCents) / 12;
}

export type MrrMovement = 'new' | 'expansion' | 'contraction' | 'churn' | 'reactivation';

/**
 * How one change moves MRR: 0 → x is `new`, except resuming a paused subscription (`reactivation`);
 * x → 0 is `churn` (cancel, lapse and pause alike: the revenue left); up is `expansion`, down is
 * `contraction`; no change is null.
 */
export function movementOf(before: number, after: number, move: Move | 'create'): MrrMovement | null {
  if (before === after) return null;
  if (before <= 0) return move === 'reactivate' ? 'reactivation' : 'new';
  if (after <= 0) return 'churn';
  return after > before ? 'expansion' : 'contraction';
}

// ---------------------------------------------------------------------------------------------
// Periods

/** `date` plus `months` calendar months, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, m, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

export function cycleMonths(cycle: BillingCycle): number {
  return cycle === 'annual' ? 12 : 1;
}

/**
 * The end of the period that starts at `start`, counted from the billing anchor so that short months
 * do not drift the billing day: anchor Jan 31 gives Feb 28, then Mar 31 (not Mar 28).
 */
export function periodEndAfter(anchor: Date, cycle: BillingCycle, start: Date): Date {
  const step = cycleMonths(cycle);
  const months = (start.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (start.getUTCMonth() - anchor.getUTCMonth());
  let k = Math.max(1, Math.floor(months / step));
  let end = addMonths(anchor, k * step);
  while (end.getTime() <= start.getTime()) end = addMonths(anchor, ++k * step);
  while (k > 1 && addMonths(anchor, (k - 1) * step).getTime() > start.getTime()) end = addMonths(anchor, --k * step);
  return end;
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** When an invoice issued at `issuedAt` falls due. */
export function invoiceDueAt(issuedAt: Date): Date {
  return addDays(issuedAt, INVOICE_NET_DAYS);
}
