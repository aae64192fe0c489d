// Query cost, reported and budgeted (docs/cost.md). Every operation's estimate (gateway/limits.ts,
// from the supergraph's @cost/@listSize) is charged to the caller key's budget per minute before
// execution; a spent budget answers 429 RATE_LIMITED with Retry-After. Every answer carries
// `extensions.cost = { requested, limit, remaining, resetAt }` and the same as X-Cost-* headers
// (the REST bridge forwards them). Subscriptions and their events' follow-up queries are not charged.
import { GraphQLError } from 'graphql';
import { HeaderMap, type GraphQLRequestContext } from '@apollo/server';
import type { RateLimiter } from '../../lib/rate-limit.js';
import { answerBytes, replaceAnswerBytes, type GraphQLAnswer } from '../../lib/http.js';
import type { TenantContext } from '../../lib/tenant.js';
import type { GatewayContext } from '../data-source.js';
import type { GatewayExtension } from '../hooks.js';
import type { OperationMeasures } from '../limits.js';
import type { OperationHooks, OperationPlugin } from '../operation-plugins.js';
import { budgetOf, type CostBudgets } from './budget.js';

/** `extensions.cost`: the estimate, and the key's budget after it (null for callers without a budget). */
export interface CostReport {
  requested: number;
  /** units per minute of the key's plan */
  limit: number | null;
  remaining: number | null;
  /** when the budget's minute ends (ISO 8601) */
  resetAt: string | null;
}

export const COST_HEADERS = ['x-cost-requested', 'x-cost-limit', 'x-cost-remaining', 'x-cost-reset'] as const;

interface Charged {
  report: CostReport;
  /** the report's resetAt in ms (null with it), for X-Cost-Reset without parsing the ISO text back */
  resetAt: number | null;
  /** ms until the budget's window ends, when refused */
  refusedFor?: number;
}

export interface CostDeps {
  limiter: RateLimiter;
  budgets: CostBudgets;
  measures: OperationMeasures;
  /** MAX_QUERY_COST: an operation over it is refused by the core's limits (400), not charged */
  maxCost: number;
}

/**
 * What one cost extension remembers between requests, beside the budgets (LastSeen): pure memos,
 * kept per extension rather than per process (two gateways in one process share nothing).
 */
class ReportMemo {
  /** the last window end turned into ISO 8601: every key's window ends on the same minute, so one entry serves nearly every request */
  private lastIso = { ms: NaN, text: '' };
  /** what is known of each stored answer's bytes (StoredBody) */
  private bodies = new WeakMap<Buffer, StoredBody>();

  iso(ms: number): string {
    if (this.lastIso.ms !== ms) this.lastIso = { ms, text: new Date(ms).toISOString() };
    return this.lastIso.text;
  }

  storedBody(bytes: Buffer): StoredBody {
    let s = this.bodies.get(bytes);
    if (!s) this.bodies.set(bytes, (s = { found: findReport(bytes) ?? null }));
    return s;
  }
}

function report(memo: ReportMemo, requested: number, b: { limit: number } | undefined, r: { remaining: number; resetMs: number } | undefined, now = Date.now()): Charged {
  // windows end on whole seconds (lib/rate-limit.ts): rounding takes away the ms between the limiter's clock reading and this one
  const resetAt = r ? Math.round((now + r.resetMs) / 1000) * 1000 : null;
  return { report: { requested, limit: b?.limit ?? null, remaining: r ? r.remaining : null, resetAt: resetAt === null ? null : memo.iso(resetAt) }, resetAt };
}

/** The report as X-Cost-* headers, each given to `set`. */
function setHeaders({ report: c, resetAt }: Charged, set: (name: string, value: string) => void, now = Date.now()): void {
  set('x-cost-requested', String(c.requested));
  if (c.limit !== null) set('x-cost-limit', String(c.limit));
  if (c.remaining !== null) set('x-cost-remaining', String(c.remaining));
  if (resetAt !== null) set('x-cost-reset', String(Math.max(0, Math.ceil((resetAt - now) / 1000))));
}

/**
 * The last budget state this gateway saw per limiter key, for the report on a response-cache hit:
 * a hit must stay free of a Redis round trip (docs/response-cache.md's target), so it reports what
 * the key's last charge here left (other gateways' charges since then are not in it).
 */
class LastSeen {
  private states = new Map<string, { remaining: number; resetAt: number }>();
  set(key: string, remaining: number, resetAt: number): void {
    if (this.states.size > 100_000) this.states.clear();
    this.states.set(key, { remaining, resetAt });
  }
  /** remaining and the window's end; a window that has ended is whole again */
  get(key: string, limit: number, now: number): { remaining: number; resetMs: number } {
    const s = this.states.get(key);
    if (s && s.resetAt > now) return { remaining: s.remaining, resetMs: s.resetAt - now };
    return { remaining: limit, resetMs: 60_000 - (now % 60_000) };
  }
}

/** The cost feature as a gateway extension (hooks.ts): the Apollo plugin, and the report of a response-cache hit. */
export function costExtension(deps: CostDeps): GatewayExtension {
  const seen = new LastSeen();
  const memo = new ReportMemo();
  return { plugins: [costPlugin(deps, seen, memo)], afterExecute: (_call, tenant, answer) => reportCachedAnswer(deps, seen, memo, tenant, answer) };
}

function costPlugin({ limiter, budgets, measures, maxCost }: CostDeps, seen: LastSeen, memo: ReportMemo): OperationPlugin<GatewayContext> {
  const charged = new WeakMap<object, Charged>();
  /** the key's budget charged `requested` units: what is left, for the report */
  const charge = async (rc: GraphQLRequestContext<GatewayContext>, budget: { key: string; limit: number }, requested: number) => {
    const r = await limiter.spend(budget.key, budget.limit, requested);
    const now = Date.now();
    seen.set(budget.key, r.remaining, now + r.resetMs);
    const c = report(memo, requested, budget, r, now);
    if (!r.allowed) c.refusedFor = Math.max(1000, r.resetMs);
    charged.set(rc, c);
  };
  // one set of hooks for every request (its state is in `charged`, by request): nothing allocated per request to start it
  const hooks: OperationHooks<GatewayContext> = {
    didResolveOperation(rc) {
      // no report for callers without credentials (introspection, __typename): they have no budget
      if (!rc.operation || !rc.document || rc.operation.operation === 'subscription' || rc.contextValue.costExempt || rc.contextValue.tenant.kind === 'anonymous') return;
      const requested = measures.measure(rc.schema, rc.document, rc.operationName, rc.request.variables ?? {}).cost;
      const budget = budgetOf(rc.contextValue.tenant, budgets);
      if (!budget || requested > maxCost) return void charged.set(rc, report(memo, requested, budget, undefined));
      return charge(rc, budget, requested);
    },
    responseForOperation(rc) {
      const c = charged.get(rc);
      if (c?.refusedFor === undefined) return null;
      const seconds = Math.ceil(c.refusedFor / 1000);
      const message = `The key's cost budget of ${c.report.limit} units per minute has ${c.report.remaining} left, less than this operation's ${c.report.requested}; retry in ${seconds} s`;
      const error = new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', status: 429, meta: { retryAfterMs: c.refusedFor, resetAt: c.report.resetAt } } });
      return { http: { status: 429, headers: new HeaderMap([['retry-after', String(seconds)]]) }, body: { kind: 'single', singleResult: { errors: [error.toJSON()] } } };
    },
    willSendResponse(rc) {
      const c = charged.get(rc);
      if (!c) return;
      const headers = rc.response.http.headers;
      setHeaders(c, (k, v) => headers.set(k, v));
      const body = rc.response.body;
      if (body?.kind !== 'single') return;
      // set last, so that the serialised answer ends with it (reportCachedAnswer finds it there)
      const extensions = body.singleResult.extensions;
      body.singleResult.extensions = extensions ? { ...extensions, cost: c.report } : { cost: c.report };
    },
  };
  return { requestDidStart: () => hooks };
}

const COST_KEY = '"cost":';
const MARK = `${COST_KEY}{"requested":`;

/**
 * A response-cache hit is answered without executing and is not charged; its stored body carries
 * the report of the request that filled it. The report is replaced by one with the budget as this
 * gateway last saw it (the estimate stays): the stored text's last `"cost":{"requested":…}` object, which the
 * plugin above serialised last.
 */
function reportCachedAnswer(deps: CostDeps, seen: LastSeen, memo: ReportMemo, tenant: TenantContext, a: GraphQLAnswer): void {
  if (a.headers['x-response-cache'] !== 'hit' || a.value !== undefined) return;
  // the stored bytes when the answer still has them (the report is rewritten in them: the rest is neither decoded nor encoded again), else its text
  const bytes = answerBytes(a);
  const found = bytes ? (memo.storedBody(bytes).found ?? undefined) : findReport(a.body);
  if (!found) return;
  const budget = budgetOf(tenant, deps.budgets);
  const now = Date.now();
  const fresh = report(memo, found.requested, budget, budget ? seen.get(budget.key, budget.limit, now) : undefined, now);
  const replacement = `${COST_KEY}${JSON.stringify(fresh.report)}`;
  const { at, end } = found;
  if (bytes) replaceAnswerBytes(a, withReport(memo.storedBody(bytes), bytes, found, replacement));
  else a.body = `${a.body.slice(0, at)}${replacement}${a.body.slice(end + 1)}`;
  setHeaders(fresh, (k, v) => (a.headers[k] = v), now);
}

/** Where a serialised answer's report is (`"cost":{…}` from `at` to `end`, inclusive) and its estimate. */
interface FoundReport {
  at: number;
  end: number;
  requested: number;
}

/** The report in a text or in bytes (offsets in bytes then): its last `"cost":{"requested":…}` object. */
function findReport(body: string | Buffer): FoundReport | undefined {
  const at = body.lastIndexOf(MARK);
  const end = at < 0 ? -1 : body.indexOf('}', at);
  if (end < 0) return undefined;
  const text = typeof body === 'string' ? body.slice(at + COST_KEY.length, end + 1) : body.toString('utf8', at + COST_KEY.length, end + 1);
  try {
    const { requested } = JSON.parse(text) as CostReport;
    return typeof requested === 'number' ? { at, end, requested } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What is known of a stored answer's bytes (they do not change): where their report is, found once,
 * and the bytes last sent with a fresh report in its place. The report changes only when this gateway
 * charges the key again or its minute ends, so those bytes are sent again while it is the same (no
 * copy of the body per hit).
 */
interface StoredBody {
  found: FoundReport | null;
  last?: { replacement: string; bytes: Buffer };
}

/** The stored bytes with `replacement` in place of their report (see StoredBody). */
function withReport(s: StoredBody, bytes: Buffer, found: FoundReport, replacement: string): Buffer {
  if (s.last?.replacement === replacement) return s.last.bytes;
  const out = Buffer.concat([bytes.subarray(0, found.at), Buffer.from(replacement, 'utf8'), bytes.subarray(found.end + 1)]);
  s.last = { replacement, bytes: out };
  return out;
}
