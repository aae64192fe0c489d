// The REST bridge process: node:http in front of the route table. It speaks to the gateway
// (GraphQL over HTTP) and, for upload routes, to the object store the bytes stream into; never to
// a subgraph or a database, so any number of replicas can run.
import { createServer } from 'node:http';
import type { LocalRoutes } from '../lib/local-transport.js';
import type { Config } from '../lib/config.js';
import { closeServer, listen, pathOf } from '../lib/http.js';
import { remainingMs } from '../lib/lifecycle.js';
import { METRICS_PATH, sendMetrics } from '../lib/metrics.js';
import { instrument, startTracing } from '../lib/telemetry.js';
import { closeRedis, connectRedis, redisConfigured } from '../lib/redis.js';
import { sharedRateLimiter } from '../lib/redis-fallback.js';
import { answerClientErrorsWithJson } from '../lib/input-policy.js';
import type { Logger } from '../lib/logger.js';
import { openObjectStore } from '../lib/object-store.js';
import { GatewayClient } from './gateway-client.js';
import { clientAddressResolver } from '../lib/client-address.js';
import { createRequestHandler } from './handler.js';
import { loadOperations } from './operations.js';
import { ROUTES } from './routes/index.js';

export { ROUTES } from './routes/index.js';
export { loadOperations } from './operations.js';

export interface RunningRestBridge {
  url: string;
  port: number;
  /** stop accepting and finish the requests in flight before `deadline` */
  drain(deadline: number): Promise<void>;
  stop(deadline?: number): Promise<void>;
}

/** `local`: a gateway in this process, called without HTTP (lib/local-transport.ts) */
export async function startRestBridge(opts: { cfg: Config; log: Logger; port?: number; gatewayUrl?: string; local?: LocalRoutes }): Promise<RunningRestBridge> {
  const { cfg } = opts;
  const log = opts.log.child({ proc: 'rest-bridge' });
  const tracing = await startTracing(cfg, 'rest-bridge', log);
  const gateway = new GatewayClient(opts.gatewayUrl ?? cfg.gatewayUrl, undefined, cfg.internalSecret, tracing, opts.local);
  // Checked before listening: a missing bucket or a route naming a missing operation stops start-up with one clear line.
  const objects = await openObjectStore(cfg);
  const redis = redisConfigured(cfg) ? await connectRedis(cfg, log) : undefined;
  const limiter = sharedRateLimiter(redis, cfg.redisKeyPrefix, log, 'endpoint limits');
  const handle = createRequestHandler({ routes: ROUTES, operations: loadOperations(), gateway, log, uploadSecret: cfg.internalSecret, objects, limiter, proxies: clientAddressResolver(cfg.trustedProxies), corsOrigins: cfg.corsOrigins, publicUrl: cfg.publicUrl });

  const server = createServer((req, res) => {
    if (pathOf(req) === METRICS_PATH) return void sendMetrics(req, res, cfg.metricsToken).catch((e) => log.error('metrics failed', { err: e }));
    instrument('rest-bridge', tracing, req, res, () =>
      handle(req, res).catch((e) => {
        // createRequestHandler renders its own failures; this only catches a failure to write them.
        log.error('response failed', { err: e });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }),
    );
  });
  answerClientErrorsWithJson(server);
  // Longer than common load-balancer idle timeouts, so the proxy closes idle sockets, not us.
  server.keepAliveTimeout = 65_000;

  const port = await listen(server, opts.port ?? cfg.restPort, cfg.host, 'REST_PORT');
  const url = `http://${cfg.host}:${port}`;
  log.info('rest bridge listening', { url, gateway: gateway.url, routes: ROUTES.length });
  let drained: Promise<void> | undefined;
  const drain = (deadline: number) => (drained ??= closeServer(server, remainingMs(deadline)));
  return {
    url,
    port,
    drain,
    async stop(deadline = Date.now() + cfg.shutdownGraceMs) {
      await drain(deadline);
      await closeRedis(redis);
      await tracing?.shutdown().catch(() => undefined);
    },
  };
}
