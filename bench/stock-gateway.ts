// The comparison point of bench/throughput.bench.ts: stock @apollo/gateway (default RemoteGraphQLDataSource,
// Apollo Server's defaults) on the same supergraph and subgraphs, in its own process. The subgraphs accept
// only signed tenant contexts, so each subgraph fetch carries the bench tenant (BENCH_TENANT, JSON) signed
// with INTERNAL_SECRET; nothing else differs from a stock set-up.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { handleGraphQL } from '../lib/http.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';
import { SUPERGRAPH_PATH } from '../gateway/gateway.js';

const tenant = JSON.parse(process.env.BENCH_TENANT ?? '{}') as TenantContext;
const secret = process.env.INTERNAL_SECRET ?? '';
const urls = JSON.parse(process.env.BENCH_SUBGRAPH_URLS ?? '{}') as Record<string, string>;
const port = Number(process.env.STOCK_GATEWAY_PORT);

/** Stock data source with a fetcher that adds the tenant header bound to the subgraph and the exact body. */
function signed(name: string, url: string): RemoteGraphQLDataSource {
  const fetcher = (u: string, init: { headers?: Record<string, string>; body?: string } & Record<string, unknown>) =>
    fetch(u, { ...init, headers: { ...(init.headers ?? {}), [TENANT_HEADER]: signTenantContext(tenant, secret, { audience: name, body: init.body ?? '' }) } } as RequestInit);
  return new RemoteGraphQLDataSource({ url, fetcher: fetcher as any });
}

const gateway = new ApolloGateway({ supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'), buildService: ({ name }) => signed(name, urls[name]) });
const apollo = new ApolloServer({ gateway });
await apollo.start();
const server = createServer((req, res) => void handleGraphQL(apollo, req, res, async () => ({})));
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
