// The gateway core alone (gateway/core.ts) on any supergraph: the execution path `npm start` uses
// (single-fetch pass-through, in-flight sharing, our data source, the input limits) without the
// platform's policy (no keys, tenants or operators; subgraphs at the URLs the supergraph names). What a
// peer suite drives: `npm run audit:federation` (scripts/audit-federation.ts).
//   node --import @swc-node/register/esm-register scripts/federation-gateway.ts --supergraph <file> --port <p>
// POST|GET /graphql, GET /health. GATEWAY_SINGLE_FETCH, GATEWAY_SHARE_INFLIGHT, MAX_QUERY_* as for `npm start`.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../lib/config.js';
import { answerGraphQL, MiB, pathOf, readGraphQLCall, sendAnswer, sendJson } from '../lib/http.js';
import { coreEdgePolicy, coreLimits, startGatewayCore } from '../gateway/core.js';
import { apolloTelemetryEnv } from '../gateway/apollo-telemetry.js';
import { parseCli } from './cli-args.js';

const USAGE = 'usage: federation-gateway --supergraph <file> --port <port> [--host 127.0.0.1]';
const { values } = parseCli(USAGE, {
  options: { supergraph: { type: 'string' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, help: { type: 'boolean', short: 'h' } },
});
const port = Number(values.port);
if (!values.supergraph || !Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`error: --supergraph and --port (1–65535) are required\n${USAGE}`);
  process.exit(2);
}

const cfg = loadConfig();
apolloTelemetryEnv(cfg);
const core = await startGatewayCore({
  supergraphSdl: readFileSync(values.supergraph, 'utf8'),
  singleFetch: cfg.gatewaySingleFetch,
  shareInFlight: cfg.gatewayShareInFlight,
  limits: coreLimits(cfg.maxQueryDepth, cfg.maxQueryCost),
});

const edgePolicy = coreEdgePolicy();
const server = createServer((req, res) => {
  const path = pathOf(req);
  if (path === '/health') return sendJson(res, 200, { status: 'ok', service: 'federation-gateway' });
  if (path !== '/graphql') return sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] });
  void (async () => {
    const call = await readGraphQLCall(req, res);
    if (call) sendAnswer(req, res, await answerGraphQL(core.apollo, call, async () => ({}), MiB, edgePolicy));
  })().catch((e: unknown) => {
    console.error('request failed', e);
    if (!res.headersSent) sendJson(res, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, values.host, () => console.log(`federation gateway ready at http://${values.host}:${port}/graphql`));

// stops at once: the peer suite starts the next gateway on the same port right after
const stop = () => {
  server.close();
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
  void core.apollo.stop().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
