import { headerValue, postJson, type JsonResponse } from '../lib/http-client.js';
// The bridge's only way out: GraphQL to the gateway, over HTTP (lib/http-client.ts: keep-alive
// node:http), or in process when the gateway runs in the same process (lib/local-transport.ts).
// Credentials are forwarded untouched; the gateway authenticates. The client's address (resolved
// by the handler with TRUSTED_PROXIES, lib/client-address.ts) travels in x-client-address, signed
// with INTERNAL_SECRET, for key IP allow-lists; a client-sent X-Forwarded-For is never copied.
import type { IncomingHttpHeaders } from 'node:http';
import type { GraphQLErrorLike } from './errors.js';
import type { Operation } from './operations.js';
import { CLIENT_ADDRESS_HEADER, signClientAddress } from '../lib/client-address.js';
import { normaliseIp } from '../lib/ip-list.js';
import type { Tracing } from '../lib/telemetry.js';
import type { LocalRoutes } from '../lib/local-transport.js';

// traceparent/tracestate: a client's trace continues at the gateway (replaced by the bridge's own span when tracing is on)
const FORWARDED_REQUEST_HEADERS = ['authorization', 'x-app-id', 'x-api-key', 'x-platform', 'origin', 'x-request-id', 'traceparent', 'tracestate'] as const;
/** gateway response headers a REST client should see (rate limiting, query cost) */
export const FORWARDED_RESPONSE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'access-control-allow-origin',
  // the query cost of the call and the key's cost budget (docs/cost.md)
  'x-cost-requested',
  'x-cost-limit',
  'x-cost-remaining',
  'x-cost-reset',
] as const;

export interface CallerInfo {
  headers: IncomingHttpHeaders;
  clientIp?: string;
  requestId: string;
}

export type GatewayOutcome =
  | { kind: 'data'; data: Record<string, any>; headers: Record<string, string> }
  | { kind: 'errors'; errors: GraphQLErrorLike[]; httpStatus: number; headers: Record<string, string> }
  | { kind: 'unavailable'; reason: string };

export interface HealthProbe {
  status: number;
  latencyMs: number;
  body?: Record<string, any>;
  error?: string;
}

export { normaliseIp } from '../lib/ip-list.js';

export class GatewayClient {
  readonly baseUrl: string;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 30_000,
    /** INTERNAL_SECRET: signs the client address for the gateway */
    private readonly internalSecret?: string,
    /** when tracing is on: the gateway call continues the bridge's server span (lib/telemetry.ts) */
    private readonly tracing?: Tracing,
    /** a gateway in this process (one-process stack): called without HTTP when not traced */
    private readonly local?: LocalRoutes,
  ) {
    this.baseUrl = url.replace(/\/graphql\/?$/, '');
    this.host = new URL(url).host;
  }

  /** the Host header an HTTP call would carry */
  private readonly host: string;

  async execute(op: Operation, variables: Record<string, unknown>, caller: CallerInfo): Promise<GatewayOutcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = caller.headers[name];
      const value = Array.isArray(v) ? v[0] : v;
      if (value) headers[name] = value;
    }
    headers['x-request-id'] = caller.requestId;
    const ip = normaliseIp(caller.clientIp);
    const inProcess = this.tracing ? undefined : this.local?.get(this.url);
    // over HTTP the address travels signed; in process it is handed over as it is (nothing to forge there)
    if (ip && this.internalSecret && !inProcess) headers[CLIENT_ADDRESS_HEADER] = signClientAddress(ip, this.internalSecret);
    this.tracing?.inject(headers);

    let res: { status: number; headers: JsonResponse['headers']; text?: string };
    let value: unknown;
    // as JSON would carry them: a variable set to undefined is absent (its default applies), not null
    const sent: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(variables)) if (v !== undefined) sent[k] = v;
    const request = { query: op.source, operationName: op.name, variables: sent };
    try {
      if (inProcess) {
        // the request as a value: the gateway need not parse (or re-check) what this bridge built
        const r = await inProcess({ ...headers, host: this.host }, '', request, ip);
        // the result as a value too: nothing serialised by the gateway, nothing parsed here
        value = r.value;
        res = { status: r.status, headers: r.headers ?? {}, ...(value === undefined ? { text: r.text } : {}) };
      } else res = await postJson(this.url, headers, JSON.stringify(request), this.timeoutMs);
    } catch (e) {
      return { kind: 'unavailable', reason: describe(e) };
    }
    const ok = res.status >= 200 && res.status < 300;
    const out: Record<string, string> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const v = headerValue(res.headers, name);
      if (v !== undefined) out[name] = v;
    }
    let body: any = value;
    try {
      body ??= JSON.parse(res.text ?? '');
    } catch {
      return { kind: 'unavailable', reason: `gateway answered ${res.status} with a non-JSON body` };
    }
    // REST has no partial success: any error fails the request.
    if (Array.isArray(body?.errors) && body.errors.length) return { kind: 'errors', errors: body.errors, httpStatus: res.status, headers: out };
    if (ok && body && typeof body.data === 'object' && body.data !== null) return { kind: 'data', data: body.data, headers: out };
    return { kind: 'unavailable', reason: `gateway answered ${res.status} without data or errors` };
  }

  /** GET a gateway health path; never throws. */
  async health(path: string, timeoutMs = 5_000): Promise<HealthProbe> {
    const started = performance.now();
    try {
      const r = await fetch(this.baseUrl + path, { signal: AbortSignal.timeout(timeoutMs) });
      const text = await r.text();
      let body: Record<string, any> | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: r.status, latencyMs: Math.round(performance.now() - started), body };
    } catch (e) {
      return { status: 0, latencyMs: Math.round(performance.now() - started), error: describe(e) };
    }
  }
}

function describe(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return 'gateway timed out';
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}
