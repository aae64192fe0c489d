// A subgraph that cannot be reached (refused, reset, timed out) or answers a 5xx without a GraphQL
// body: its fields fail with SERVICE_UNAVAILABLE (503, meta.retryAfterMs), not INTERNAL, and the REST
// bridge renders that as 503 with Retry-After. The gateway keeps no state about it: the next request
// tries the subgraph again, so a restarted subgraph is used again without restarting the gateway.
// Hooked into the gateway's formatError (gateway.ts), so it holds whichever data source sends the fetch.
import type { GraphQLFormattedError } from 'graphql';

/** What a client is told to wait before retrying (Retry-After: 1). */
export const SUBGRAPH_RETRY_AFTER_MS = 1000;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);
const NETWORK_MESSAGE = /ECONNREFUSED|ECONNRESET|socket hang up|timed out|connect ETIMEDOUT/;

function unreachable(error: unknown): boolean {
  let e = error as { code?: unknown; message?: unknown; originalError?: unknown; cause?: unknown; extensions?: { response?: { status?: unknown } } } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && NETWORK_MESSAGE.test(e.message)) return true;
    const status = e.extensions?.response?.status;
    if (typeof status === 'number' && status >= 500) return true;
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return false;
}

/** The formatted SERVICE_UNAVAILABLE error for a subgraph fetch failure, or undefined for any other error. */
export function subgraphUnavailable(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError | undefined {
  if (!unreachable(error)) return undefined;
  return {
    message: 'A service this request needs is temporarily unavailable; retry shortly',
    path: formatted.path,
    extensions: { code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: SUBGRAPH_RETRY_AFTER_MS } },
  };
}
