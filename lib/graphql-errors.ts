// One formatter for every Apollo Server in the system: domain errors keep their code, status and
// parameter; GraphQL validation errors become 400s; anything unexpected is logged and masked as
// INTERNAL (no stack, no message leak).
import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { DomainError, isErrorCode, isRefusalReason, statusOf, type ErrorCode } from './errors.js';
import type { Logger } from './logger.js';

const APOLLO_CODES: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  PERSISTED_QUERY_NOT_FOUND: 'BAD_REQUEST',
  PERSISTED_QUERY_NOT_SUPPORTED: 'BAD_REQUEST',
  OPERATION_RESOLUTION_FAILURE: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
};

export function createErrorFormatter(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof DomainError) {
      return {
        message: original.message,
        path: formatted.path,
        extensions: {
          code: original.code,
          status: original.status,
          ...(original.opts.parameter ? { parameter: original.opts.parameter } : {}),
          ...(original.opts.reason ? { reason: original.opts.reason } : {}),
          ...(original.opts.meta ? { meta: original.opts.meta } : {}),
        },
      };
    }
    const code = formatted.extensions?.code;
    // Apollo's own codes first: they name the offending variable.
    if (typeof code === 'string' && APOLLO_CODES[code]) {
      const mapped = APOLLO_CODES[code];
      // a subgraph's BAD_REQUEST arrives here with its parameter already named: keep it
      const given = formatted.extensions?.parameter;
      const parameter = typeof given === 'string' ? given : variableName(formatted.message);
      return {
        message: formatted.message,
        locations: formatted.locations,
        extensions: { code: mapped, status: statusOf(mapped), ...(parameter ? { parameter } : {}) },
      };
    }
    if (typeof code === 'string' && isErrorCode(code)) {
      // A fresh extensions object: only what clients are meant to see (no stacktrace, no internals).
      const ext = formatted.extensions ?? {};
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: {
          code,
          status: typeof ext.status === 'number' ? ext.status : statusOf(code),
          ...(typeof ext.parameter === 'string' ? { parameter: ext.parameter } : {}),
          ...(isRefusalReason(ext.reason) ? { reason: ext.reason } : {}),
          ...(ext.meta ? { meta: ext.meta } : {}),
          ...(typeof ext.serviceName === 'string' ? { serviceName: ext.serviceName } : {}),
        },
      };
    }
    // the database unreachable or restarting: a clear 503 the client may retry, not INTERNAL
    if (databaseUnavailable(original)) {
      log.warn('database unavailable', { err: original, path: formatted.path });
      return {
        message: 'The database is unavailable; retry shortly',
        path: formatted.path,
        extensions: { code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: DATABASE_RETRY_AFTER_MS } },
      };
    }
    // type-graphql argument validation
    if (original && (original as Error).name === 'ArgumentValidationError') {
      return { message: (original as Error).message, path: formatted.path, extensions: { code: 'VALIDATION_FAILED', status: 422 } };
    }
    log.error('unexpected error', { err: original, path: formatted.path });
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL', status: 500 } };
  };
}

/** What a client is told to wait when the database is unavailable (Retry-After at the REST edge). */
export const DATABASE_RETRY_AFTER_MS = 2000;

/** Connection-level codes: the network (Node), and PostgreSQL's connection-exception class 08, shutdown and start-up 57P0x, too many connections 53300. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error means the database cannot be reached now (down, restarting, out of connections),
 * as pg raises it or MikroORM wraps it (DriverException keeps `code`), anywhere in its cause chain.
 */
export function databaseUnavailable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const name = (cur as Error).name;
    const message = (cur as Error).message ?? '';
    if (name === 'ConnectionException') return true;
    if (/Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(message)) return true;
  }
  return false;
}

/** "Variable "$input" got invalid value ... at "input.price"" → input.price */
function variableName(message: string): string | undefined {
  const at = /at "([^"]+)"/.exec(message);
  if (at) return at[1];
  const v = /Variable "\$([^"]+)"/.exec(message);
  return v?.[1];
}
