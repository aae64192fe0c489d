// Requests from the gateway to subgraphs. SubgraphDataSource is the gateway core's (gateway/core.ts):
// it knows only federation. The fetch is a plain keep-alive node:http POST (lib/http-client.ts): this
// hop is on every federated query, and undici's fetch costs ~0.3 ms more per call here. process() is
// RemoteGraphQLDataSource's minus its per-fetch node-fetch Request/Response objects, plus the sharing
// of identical in-flight queries (InFlight below). SignedDataSource is the platform's layer on it: the
// signed tenant context rides in a header, encoded once per request (willSendRequest) and signed per
// subgraph fetch, bound to the subgraph's name and the exact body sent (lib/tenant.ts: one HMAC and
// one SHA-256), or to the empty body when a pass-through hands the request to a subgraph of this
// process as a value (process(), asValue).
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { STATUS_CODES } from 'node:http';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import { postJson } from '../lib/http-client.js';
import type { LocalRoutes } from '../lib/local-transport.js';
import { observeSubgraphFetch } from '../lib/metrics.js';
import type { Tracing } from '../lib/telemetry.js';
import { encodeTenantContext, signEncodedTenant, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';

/** The answer of a fetch already made (gateway/single-fetch.ts), for the standard executor to use instead of fetching again. */
export interface Prefetched {
  query: string;
  outcome: { ok: true; response: GraphQLResponse } | { ok: false; error: unknown };
}

/** What the gateway core keeps per request (gateway/core.ts). */
export interface CoreContext {
  /** a fetch the single-fetch pass-through already made, answered without fetching again (gateway/single-fetch.ts) */
  prefetched?: Prefetched;
}

/** The platform's request context: the caller's tenant, signed to every subgraph. */
export interface GatewayContext extends CoreContext {
  tenant: TenantContext;
  /** the encoded tenant context, computed once per request and signed per subgraph fetch */
  encodedTenant?: string;
  /** a subscription event's follow-up query: not charged to the cost budget (gateway/cost/) */
  costExempt?: boolean;
}

type GraphQLResponse = Awaited<ReturnType<RemoteGraphQLDataSource['process']>>;

interface SubgraphAnswer {
  status: number;
  text: string;
  /** an in-process subgraph's successful answer as a value (lib/graphql-executor.ts ExecutorAnswer.value) */
  value?: { data: unknown };
}

/**
 * Identical subgraph queries in flight at once are sent once: the second caller waits for the first
 * one's answer. Identical means the same subgraph, the same request body (query, variables,
 * operation name) and the same tenant context apart from its request id, so an answer only ever
 * reaches a caller who would have got the same answer from the subgraph (tenant-safe by construction).
 * Queries only: a mutation is always sent. Each caller parses the answer text itself, so callers never
 * share (and mutate) one result object, except single-fetch pass-throughs, which may take an
 * in-process answer's value (process(options, asValue)): they hand the data on unchanged. An answer
 * is shared only while in flight, never cached.
 */
export class InFlight {
  private readonly pending = new Map<string, Promise<SubgraphAnswer>>();
  /** how many fetches were answered by another caller's request (for the bench and tests) */
  shared = 0;

  run(key: string, send: () => Promise<SubgraphAnswer>): Promise<SubgraphAnswer> {
    const running = this.pending.get(key);
    if (running) {
      this.shared++;
      return running;
    }
    const p = send().finally(() => this.pending.delete(key));
    this.pending.set(key, p);
    return p;
  }
}

/** The tenant context as a sharing key: everything but the per-request id. */
function tenantKey(t: TenantContext | undefined): string {
  if (!t) return '';
  const { requestId: _requestId, ...rest } = t;
  return JSON.stringify(rest);
}

function isQuery(document: DocumentNode | undefined, query: string): boolean {
  if (document) {
    const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return ops.length > 0 && ops.every((d) => d.operation === 'query');
  }
  return /^\s*(query\b|\{)/.test(query);
}

/** A subgraph of the supergraph, fetched over HTTP (or in process), identical in-flight queries shared. */
export class SubgraphDataSource<C extends CoreContext = CoreContext> extends RemoteGraphQLDataSource<C> {
  constructor(
    url: string,
    /** the subgraph's name (metrics, traces) */
    protected readonly audience: string,
    /** share identical in-flight queries (GATEWAY_SHARE_INFLIGHT); undefined: always send */
    private readonly inFlight?: InFlight,
    /** when tracing is on: a client span per fetch, its traceparent sent to the subgraph */
    private readonly tracing?: Tracing,
    /** subgraphs served in this process (one-process stack): fetched without HTTP when not traced */
    private readonly local?: LocalRoutes,
  ) {
    super({ url });
  }

  /** Headers a layer adds to one fetch, given its exact body (the platform's signed tenant context). */
  protected fetchHeaders(_context: C, _body: string): Record<string, string> | undefined {
    return undefined;
  }

  /** What besides the body two fetches must share to share one answer ('' in the core: the body decides). */
  protected sharingKey(_context: C): string {
    return '';
  }

  /**
   * `asValue`: the caller only hands the data on unchanged (gateway/single-fetch.ts), so an in-process
   * subgraph's answer value is returned as is instead of its text parsed. Other callers always get a
   * parsed copy of their own (the standard executor shapes what it gets, and graphql-js's result
   * objects have no prototype).
   */
  override async process(options: GraphQLDataSourceProcessOptions<C>, asValue = false): Promise<GraphQLResponse> {
    const { request, context } = options;
    const prefetched = (context as Partial<CoreContext>).prefetched;
    if (prefetched && prefetched.query === request.query) {
      (context as Partial<CoreContext>).prefetched = undefined;
      if (!prefetched.outcome.ok) throw prefetched.outcome.error;
      return prefetched.outcome.response;
    }
    const headers = new Headers(request.http?.headers as unknown as Headers | undefined);
    headers.set('content-type', 'application/json');
    request.http = { method: 'POST', url: this.url, headers: headers as any };
    await this.willSendRequest?.(options);
    if (!request.query) throw new Error('Missing query');
    const value = { query: request.query, variables: request.variables, operationName: request.operationName, extensions: request.extensions };
    const sent: Record<string, string> = {};
    for (const [k, v] of headers) sent[k] = v;
    const document = 'document' in options ? options.document : undefined;
    const shared = !!this.inFlight && isQuery(document, request.query);
    // A pass-through's fetch (asValue: one fetch, its variables used by no other) from a subgraph of
    // this process, neither traced nor shared, is handed over as a value: its variables (a batch of
    // documents is ~1 MB) are neither serialised here nor parsed there, nor hashed twice for the
    // signature, which binds the empty body instead, as the REST bridge's in-process calls to the
    // gateway do (a header signed here never leaves the process).
    const inProcess = asValue && !shared && !this.tracing ? this.local?.get(this.url) : undefined;
    if (inProcess) {
      Object.assign(sent, this.fetchHeaders(context as C, ''));
      const res = await this.timed(async () => (await inProcess(sent, '', value)) as SubgraphAnswer);
      return res.value ? (res.value as GraphQLResponse) : toGraphQLResponse(this.url, res);
    }
    const body = JSON.stringify(value);
    Object.assign(sent, this.fetchHeaders(context as C, body));
    const send = () =>
      this.tracing
        ? this.tracing.client(`POST ${this.audience}`, { 'server.address': this.url, 'graphql.operation.name': request.operationName ?? '' }, () => {
            this.tracing!.inject(sent);
            return this.timed(() => postJson(this.url, sent, body));
          })
        : this.timed(() => this.fetchText(sent, body));
    const res = shared ? await this.inFlight!.run(`${this.sharingKey(context as C)}\n${body}`, send) : await send();
    return asValue && res.value ? (res.value as GraphQLResponse) : toGraphQLResponse(this.url, res);
  }

  /** The request as text: in process when the subgraph is served here, else over HTTP. */
  private async fetchText(headers: Record<string, string>, body: string): Promise<SubgraphAnswer> {
    const inProcess = this.local?.get(this.url);
    return inProcess ? ((await inProcess(headers, body)) as SubgraphAnswer) : postJson(this.url, headers, body);
  }

  /** One fetch, timed for gateway_subgraph_fetch_duration_seconds (lib/metrics.ts). */
  private async timed(fetchAnswer: () => Promise<SubgraphAnswer>): Promise<SubgraphAnswer> {
    const started = performance.now();
    try {
      const res = await fetchAnswer();
      observeSubgraphFetch(this.audience, String(res.status), performance.now() - started);
      return res;
    } catch (e) {
      observeSubgraphFetch(this.audience, 'error', performance.now() - started);
      throw e;
    }
  }
}

/** The platform's layer: the caller's tenant context signed to the subgraph, and shared only between callers of the same context. */
export class SignedDataSource extends SubgraphDataSource<GatewayContext> {
  constructor(url: string, private readonly secret: string, audience: string, inFlight?: InFlight, tracing?: Tracing, local?: LocalRoutes) {
    super(url, audience, inFlight, tracing, local);
  }

  override willSendRequest({ context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]): void {
    const ctx = context as Partial<GatewayContext>;
    if (!ctx.tenant) return;
    ctx.encodedTenant ??= encodeTenantContext(ctx.tenant);
  }

  protected override fetchHeaders(context: GatewayContext, body: string): Record<string, string> | undefined {
    const encoded = context.encodedTenant;
    return encoded ? { [TENANT_HEADER]: signEncodedTenant(encoded, this.secret, { audience: this.audience, body }) } : undefined;
  }

  protected override sharingKey(context: GatewayContext): string {
    return tenantKey(context.tenant);
  }
}

/**
 * A subgraph's HTTP answer as the gateway's GraphQLResponse. A subgraph answers variable-coercion
 * failures (e.g. a bad DateTimeISO) with HTTP 400 and a GraphQL errors[] body: those are handed on
 * as a GraphQL result so their code and parameter reach the client, not a generic "400: Bad Request".
 */
export function toGraphQLResponse(url: string, res: SubgraphAnswer): GraphQLResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    parsed = undefined;
  }
  const body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  const graphqlErrors = res.status >= 400 && res.status < 500 && Array.isArray(body?.errors);
  if ((res.status < 200 || res.status >= 300) && !graphqlErrors) {
    // as RemoteGraphQLDataSource.errorFromResponse words it
    const code = res.status === 401 ? 'UNAUTHENTICATED' : res.status === 403 ? 'FORBIDDEN' : undefined;
    throw new GraphQLError(`${res.status}: ${STATUS_CODES[res.status] ?? ''}`, {
      extensions: { response: { url, status: res.status, statusText: STATUS_CODES[res.status], body: body ?? res.text }, ...(code ? { code } : {}) },
    });
  }
  if (!body) throw new Error(`Expected JSON response body, but received: ${res.text.slice(0, 200)}`);
  return body as GraphQLResponse;
}
