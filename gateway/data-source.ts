// Requests from the gateway to subgraphs: the signed tenant context rides in a header, signed once
// per request. The fetcher is a plain keep-alive node:http POST (lib/http-client.ts): this hop is on
// every federated query, and undici's fetch costs ~0.3 ms more per call here.
import { RemoteGraphQLDataSource } from '@apollo/gateway';
import { postJson } from '../lib/http-client.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';

export interface GatewayContext {
  tenant: TenantContext;
  /** the signed header, computed once per request and reused for every subgraph fetch */
  signedTenant?: string;
}

export class SignedDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(url: string, private secret: string) {
    super({ url, fetcher: keepAliveFetcher as any });
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]): void {
    const ctx = context as Partial<GatewayContext>;
    if (!ctx.tenant) return;
    ctx.signedTenant ??= signTenantContext(ctx.tenant, this.secret);
    request.http?.headers.set(TENANT_HEADER, ctx.signedTenant);
  }
}

/** A fetch-shaped function over postJson: what RemoteGraphQLDataSource calls for each subgraph fetch. */
export async function keepAliveFetcher(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<any> {
  const res = await postJson(url, { ...(init?.headers ?? {}), 'content-type': 'application/json' }, init?.body ?? '');
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
  // A subgraph answers variable-coercion failures (e.g. a bad DateTimeISO) with HTTP 400 and a GraphQL
  // errors[] body. Hand those to the gateway as a GraphQL result so their code and parameter reach the
  // client, instead of a generic "400: Bad Request".
  const graphqlErrors = res.status >= 400 && res.status < 500 && /"errors"\s*:\s*\[/.test(res.text);
  const status = graphqlErrors ? 200 : res.status;
  return {
    url,
    ok: status >= 200 && status < 300,
    status,
    statusText: String(res.status),
    headers,
    text: async () => res.text,
    json: async () => JSON.parse(res.text),
  };
}
