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

class Signed extends RemoteGraphQLDataSource {
  override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]): void {
    request.http?.headers.set(TENANT_HEADER, signTenantContext(tenant, secret));
  }
}

const gateway = new ApolloGateway({ supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'), buildService: ({ name }) => new Signed({ url: urls[name] }) });
const apollo = new ApolloServer({ gateway });
await apollo.start();
const server = createServer((req, res) => void handleGraphQL(apollo, req, res, async () => ({})));
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
