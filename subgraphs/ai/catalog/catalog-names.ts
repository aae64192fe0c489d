// The tenant's own product names, for PRODUCT entities. The catalog subgraph owns products; the AI
// service reads their names through catalog's GraphQL API (a signed service context carrying the
// caller's app and environment, so catalog's tenant filter applies) instead of keeping a copy.
// Names are cached per app partition for CACHE_MS, so a new product is recognised within a minute.
import { randomUUID } from 'node:crypto';
import { postJson } from '../../../lib/http-client.js';
import type { Logger } from '../../../lib/logger.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../../lib/tenant.js';

const CACHE_MS = 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
const MAX_ENTRIES = 10_000;
const QUERY = 'query AiProductNames($page: Int!) { products(pageSize: 100, page: $page) { items { name } total } }';

export class CatalogProductNames {
  private readonly cache = new Map<string, { at: number; names: Promise<string[]> }>();

  constructor(
    private readonly catalogUrl: string,
    private readonly internalSecret: string,
    private readonly log: Logger,
  ) {}

  /** Up to 500 product names of the caller's app partition; [] when the catalog cannot be reached. */
  names(tenant: TenantContext): Promise<string[]> {
    if (!tenant.appId || !tenant.environment) return Promise.resolve([]);
    const key = `${tenant.appId}:${tenant.environment}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.names;
    const names = this.fetch(tenant).catch((e: Error) => {
      this.log.warn('catalog product names unavailable; PRODUCT uses the maintained list only', { err: e });
      this.cache.delete(key);
      return [] as string[];
    });
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(key, { at: Date.now(), names });
    return names;
  }

  private async fetch(tenant: TenantContext): Promise<string[]> {
    const ctx: TenantContext = {
      kind: 'service',
      requestId: randomUUID(),
      scopes: ['products:read'],
      appId: tenant.appId,
      environment: tenant.environment,
      accountId: tenant.accountId,
      platformId: tenant.platformId,
    };
    const out: string[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const request = JSON.stringify({ query: QUERY, variables: { page } });
      const signed = signTenantContext(ctx, this.internalSecret, { audience: 'catalog', body: request });
      const res = await postJson(this.catalogUrl, { 'content-type': 'application/json', [TENANT_HEADER]: signed }, request, 5000);
      const body = JSON.parse(res.text) as { data?: { products?: { items: { name: string }[]; total: number } }; errors?: { message: string }[] };
      if (res.status !== 200 || !body.data?.products) throw new Error(`catalog answered ${res.status}: ${body.errors?.[0]?.message ?? res.text.slice(0, 200)}`);
      out.push(...body.data.products.items.map((p) => p.name));
      if (page * PAGE_SIZE >= body.data.products.total) break;
    }
    return out;
  }
}
