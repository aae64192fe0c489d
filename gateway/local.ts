// The in-process twin of POST /graphql: the REST bridge of this process calls the gateway without
// HTTP (lib/local-transport.ts), as from loopback, through the same answer (graphql-answer.ts).
import type { Config } from '../lib/config.js';
import type { LocalHandler, LocalRoutes } from '../lib/local-transport.js';
import type { GraphQLCall } from '../lib/http.js';
import { observeLocalRequest } from '../lib/metrics.js';
import type { AnswerGraphQL } from './graphql-answer.js';
import { stoppingAnswer, type ShutdownState } from './shutdown.js';

/** Serve `url` (and the URL the bridge is configured with, when it names this port) in process; returns the unregistering function. */
export function serveInProcess(local: LocalRoutes | undefined, cfg: Config, url: string, port: number, answer: AnswerGraphQL, state: ShutdownState): () => void {
  if (!local) return () => undefined;
  const serveLocal: LocalHandler = async (headers, body, parsed, clientAddress) => {
    const started = performance.now();
    const call: GraphQLCall = parsed !== undefined ? { method: 'POST', headers, url: '/graphql', parsed } : { method: 'POST', headers, url: '/graphql', raw: Buffer.from(body) };
    const a = state.closed ? stoppingAnswer() : await answer(call, '127.0.0.1', clientAddress);
    observeLocalRequest('gateway', a.route, a.status, performance.now() - started);
    // `text` read through: serialised only if the caller reads it instead of `value`
    return {
      status: a.status,
      headers: a.headers,
      value: a.value,
      get text() {
        return a.body;
      },
    };
  };
  // under the URL the bridge is configured with too (cfg.host may be a wildcard address)
  const urls = [url, ...(cfg.gatewayUrl !== url && new URL(cfg.gatewayUrl).port === String(port) ? [cfg.gatewayUrl] : [])];
  const unregister = urls.map((u) => local.register(u, serveLocal));
  return () => unregister.forEach((f) => f());
}
