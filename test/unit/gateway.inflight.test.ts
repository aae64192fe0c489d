// Sharing of identical in-flight subgraph queries (gateway/data-source.ts): one subgraph request for
// identical queries of one tenant in flight at once; never across tenants, never for mutations, and
// each caller gets its own result object.
import { createServer, type Server } from 'node:http';
import { parse } from 'graphql';
import { InFlight, SignedDataSource, type GatewayContext } from '../../gateway/data-source.js';
import { TENANT_HEADER, verifyTenantContext, type TenantContext } from '../../lib/tenant.js';

const SECRET = 'inflight-secret';
let server: Server;
let url: string;
const seen: { body: any; tenant?: TenantContext }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const v = verifyTenantContext(req.headers[TENANT_HEADER] as string, SECRET, { audience: 'catalog', body: Buffer.concat(chunks).toString('utf8') });
      seen.push({ body, tenant: v.ok ? v.ctx : undefined });
      // answer after a while, so concurrent callers overlap
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { app: v.ok ? v.ctx.appId : null, n: seen.length } }));
      }, 40);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/graphql`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
});

const tenant = (appId: string, requestId: string): TenantContext => ({ kind: 'key', requestId, scopes: ['products:read'], appId, environment: 'test' });

function call(ds: SignedDataSource, query: string, t: TenantContext, variables: Record<string, unknown> = {}) {
  const context: GatewayContext = { tenant: t };
  return ds.process({
    kind: 'incoming operation' as Extract<Parameters<SignedDataSource['process']>[0], { document?: unknown }>['kind'],
    request: { query, variables },
    context,
    document: parse(query),
    incomingRequestContext: {} as any,
    pathInIncomingRequest: [],
  });
}

describe('identical in-flight subgraph queries', () => {
  const Q = 'query { products { id } }';

  it('sends identical queries of one tenant once and gives each caller its own result', async () => {
    const inFlight = new InFlight();
    const ds = new SignedDataSource(url, SECRET, 'catalog', inFlight);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => call(ds, Q, tenant('app_a', `req-${i}`))));
    expect(seen).toHaveLength(1);
    expect(inFlight.shared).toBe(7);
    expect(results.every((r) => (r.data as any).app === 'app_a')).toBe(true);
    expect(new Set(results.map((r) => r.data)).size).toBe(8); // parsed per caller, never one shared object
  });

  it('never shares across tenants, variables or queries', async () => {
    const ds = new SignedDataSource(url, SECRET, 'catalog', new InFlight());
    const results = await Promise.all([
      call(ds, Q, tenant('app_a', 'r1')),
      call(ds, Q, tenant('app_b', 'r2')),
      call(ds, Q, { ...tenant('app_a', 'r3'), environment: 'live' }),
      call(ds, 'query($p: Int) { products(page: $p) { id } }', tenant('app_a', 'r4'), { p: 1 }),
      call(ds, 'query($p: Int) { products(page: $p) { id } }', tenant('app_a', 'r5'), { p: 2 }),
    ]);
    expect(seen).toHaveLength(5);
    expect(results.map((r) => (r.data as any).app)).toEqual(['app_a', 'app_b', 'app_a', 'app_a', 'app_a']);
    expect(seen.map((s) => s.tenant?.appId).sort()).toEqual(['app_a', 'app_a', 'app_a', 'app_a', 'app_b']);
  });

  it('always sends mutations', async () => {
    const ds = new SignedDataSource(url, SECRET, 'catalog', new InFlight());
    await Promise.all(Array.from({ length: 3 }, (_, i) => call(ds, 'mutation { touch }', tenant('app_a', `m${i}`))));
    expect(seen).toHaveLength(3);
  });

  it('sends every query when sharing is off (GATEWAY_SHARE_INFLIGHT=0)', async () => {
    const ds = new SignedDataSource(url, SECRET, 'catalog');
    await Promise.all(Array.from({ length: 4 }, (_, i) => call(ds, Q, tenant('app_a', `o${i}`))));
    expect(seen).toHaveLength(4);
  });

  it('shares nothing once the answer is in: a later identical query is sent again', async () => {
    const ds = new SignedDataSource(url, SECRET, 'catalog', new InFlight());
    await call(ds, Q, tenant('app_a', 'x1'));
    await call(ds, Q, tenant('app_a', 'x2'));
    expect(seen).toHaveLength(2);
  });
});
