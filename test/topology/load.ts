// The mixed load of the topology test and its figures: REST reads and writes, GraphQL queries and
// search indexing from a few concurrent clients through HAProxy, a subscription per tenant over
// WebSocket (reconnecting as a client does when its gateway goes away), every answer classified.
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { randomBytes } from 'node:crypto';
import { signJwt } from '../../gateway/auth/jwt.js';
import { bodyOf } from '../../lib/http-client.js';
import { SECRETS } from './cluster.js';

export const uniq = (p: string) => `${p}${randomBytes(5).toString('hex')}`;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request through the balancer; a connection reset or other transport failure is thrown. */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: r.status, body: bodyOf(await r.text()), headers: r.headers };
}

const jsonApi = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

export interface Tenant {
  name: string;
  platformHeaders: Record<string, string>;
  accountUrlId: string;
  appId: string;
  keyHeaders: Record<string, string>;
  index: string;
}

function expect201(r: Answer, what: string): any {
  if (r.status !== 201) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export function adminToken(): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ sub: 'topology-operator', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, SECRETS.JWT_SECRET);
}

export async function createKey(rest: string, t: Pick<Tenant, 'platformHeaders' | 'accountUrlId' | 'appId'>): Promise<{ id: string; secret: string }> {
  const k = expect201(
    await call(rest, 'POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, jsonApi('api_keys', { name: uniq('k'), key_type: 'secret', environment: 'live' }), t.platformHeaders),
    'create key',
  );
  return { id: k.id, secret: k.attributes.key_id };
}

export async function createTenant(rest: string, name: string): Promise<Tenant> {
  const code = uniq('p');
  const platformHeaders = { authorization: `Bearer ${adminToken()}`, 'x-platform': code };
  expect201(await call(rest, 'POST', '/platforms', jsonApi('platforms', { code, name: code }), platformHeaders), 'create platform');
  const acct = expect201(await call(rest, 'POST', '/accounts', jsonApi('accounts', { name: code, code: uniq('a'), deployment_model: 'dedicated_cloud' }), platformHeaders), 'create account');
  const accountUrlId = acct.attributes.url_id as string;
  // a plan with room for the load (the Free plan's search and AI budgets are small)
  expect201(await call(rest, 'POST', `/accounts/${accountUrlId}/subscriptions`, jsonApi('subscriptions', { model_code: 'enterprise', trial: false }), platformHeaders), 'subscribe');
  const app = expect201(await call(rest, 'POST', `/accounts/${accountUrlId}/apps`, jsonApi('apps', { name: 'App', app_type: 'web', purpose: 'production' }), platformHeaders), 'create app');
  const key = await createKey(rest, { platformHeaders, accountUrlId, appId: app.id });
  const keyHeaders = { 'x-app-id': app.id, 'x-api-key': key.secret };
  const index = uniq('idx_');
  expect201(await call(rest, 'POST', '/search/v1/indexes', jsonApi('indexes', { uid: index, primary_key: 'id' }), keyHeaders), 'create index');
  return { name, platformHeaders, accountUrlId, appId: app.id, keyHeaders, index };
}

/** How an answer counts: ok (2xx), unavailable (the documented 503 with Retry-After), or a failure kind. */
export type Kind = 'ok' | 'unavailable' | 'reset' | '5xx' | '4xx' | '503 without Retry-After';

export function classify(a: Answer | Error): Kind {
  if (a instanceof Error) return 'reset';
  if (a.status >= 200 && a.status < 300) return 'ok';
  if (a.status === 503) return a.headers.get('retry-after') ? 'unavailable' : '503 without Retry-After';
  return a.status >= 500 ? '5xx' : '4xx';
}

export interface Figures {
  requests: number;
  byKind: Record<string, number>;
  byOp: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /** the first few failures, for the report */
  samples: string[];
}

export class Load {
  private latencies: number[] = [];
  readonly byKind: Record<string, number> = {};
  readonly byOp: Record<string, number> = {};
  readonly samples: string[] = [];
  /** acknowledged writes: products (REST 201) and search documents (202 with a task) */
  readonly products: { tenant: Tenant; id: string; name: string }[] = [];
  readonly documents: { tenant: Tenant; id: string; task: string }[] = [];
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(
    private rest: string,
    private gateway: string,
    private tenants: Tenant[],
  ) {}

  start(clients: number): void {
    for (let i = 0; i < clients; i++) this.loops.push(this.loop(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private record(op: string, started: number, a: Answer | Error): Kind {
    const kind = classify(a);
    this.latencies.push(performance.now() - started);
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
    this.byOp[op] = (this.byOp[op] ?? 0) + 1;
    if (kind !== 'ok' && kind !== 'unavailable' && this.samples.length < 10) {
      this.samples.push(`${op}: ${a instanceof Error ? `${a.message} ${(a.cause as Error | undefined)?.message ?? ''}` : `${a.status} ${JSON.stringify(a.body).slice(0, 300)}`}`);
    }
    return kind;
  }

  private async timed(op: string, fn: () => Promise<Answer>): Promise<Answer | undefined> {
    const started = performance.now();
    try {
      const a = await fn();
      this.record(op, started, a);
      return a;
    } catch (e) {
      this.record(op, started, e as Error);
      return undefined;
    }
  }

  private async loop(n: number): Promise<void> {
    let i = 0;
    while (this.running) {
      // a paced client (an operation every OP_EVERY_MS at the most), so that the load is the same on a
      // fast machine and stays under the per-key limits (POST /v1/products: 100 a minute; 4 clients on
      // 2 tenants write ~60 a minute per key at this pace)
      const paced = new Promise((r) => setTimeout(r, OP_EVERY_MS));
      const t = this.tenants[(n + i) % this.tenants.length];
      const op = i++ % 5;
      if (op === 0) {
        const name = uniq('Lamp ');
        const a = await this.timed('rest write', () => call(this.rest, 'POST', '/v1/products', jsonApi('products', { name, sku: uniq('SKU-'), price: { amount: 1000, currency: 'USD' } }), t.keyHeaders));
        if (a?.status === 201) this.products.push({ tenant: t, id: a.body.data.id, name });
      } else if (op === 1 || op === 3) {
        const p = this.products.filter((x) => x.tenant === t).at(-1 - (i % 3));
        if (p) await this.timed('rest read', () => call(this.rest, 'GET', `/v1/products/${p.id}`, undefined, t.keyHeaders));
        else await this.timed('rest read', () => call(this.rest, 'GET', '/v1/products?page[size]=5', undefined, t.keyHeaders));
      } else if (op === 2) {
        const p = this.products.filter((x) => x.tenant === t).at(-1);
        await this.timed('graphql', () =>
          p
            ? call(this.gateway, 'POST', '', { query: 'query($id: ID!) { product(id: $id) { id name } }', variables: { id: p.id } }, t.keyHeaders).then(graphqlAnswer)
            : call(this.gateway, 'POST', '', { query: '{ products(pageSize: 5) { total } }' }, t.keyHeaders).then(graphqlAnswer),
        );
      } else {
        const id = uniq('d');
        const a = await this.timed('search indexing', () =>
          call(this.rest, 'POST', `/search/v1/indexes/${t.index}/documents`, jsonApi('documents', { documents: [{ id, title: `document ${id}` }] }), t.keyHeaders),
        );
        if (a?.status === 202) this.documents.push({ tenant: t, id, task: a.body.data.id });
      }
      await paced;
    }
  }

  figures(): Figures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
    return { requests: sorted.length, byKind: this.byKind, byOp: this.byOp, p50: q(0.5), p99: q(0.99), max: Math.round(sorted.at(-1) ?? 0), samples: this.samples };
  }
}

const OP_EVERY_MS = 400;

/** A GraphQL answer with errors is a failure of its own kind: its code decides (SERVICE_UNAVAILABLE counts as the 503). */
function graphqlAnswer(a: Answer): Answer {
  const errors = a.body?.errors as { extensions?: { code?: string; status?: number } }[] | undefined;
  if (a.status === 200 && errors?.length) {
    const code = errors[0].extensions?.code;
    return { ...a, status: code === 'SERVICE_UNAVAILABLE' ? 503 : 500, headers: code === 'SERVICE_UNAVAILABLE' ? new Headers({ 'retry-after': '1' }) : a.headers };
  }
  return a;
}

/** A subscription per tenant that reconnects whenever its socket closes (a gateway rolled), as a client should. */
export class TenantSubscription {
  readonly events: { at: number; productId: string }[] = [];
  connects = 0;
  lastConnectAt = 0;
  private client: Client;
  private dispose: (() => void) | undefined;
  private closed = false;

  constructor(gateway: string, tenant: Tenant) {
    this.client = createClient({
      url: gateway.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: tenant.keyHeaders,
      lazy: false,
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: () => new Promise((r) => setTimeout(r, 200)),
      on: {
        connected: () => {
          this.connects++;
          this.lastConnectAt = Date.now();
        },
      },
    });
    this.subscribe();
  }

  private subscribe(): void {
    if (this.closed) return;
    this.dispose = this.client.subscribe<{ productEvents: { productId: string } }>(
      { query: 'subscription { productEvents { event productId } }' },
      {
        next: (v) => {
          if (v.data) this.events.push({ at: Date.now(), productId: v.data.productEvents.productId });
        },
        // a completed or failed subscription (its gateway went away) is subscribed again
        error: () => setTimeout(() => this.subscribe(), 200),
        complete: () => setTimeout(() => this.subscribe(), 200),
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.dispose?.();
    await this.client.dispose();
  }
}
