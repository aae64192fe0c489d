// Error codes: the mechanism, and the kernel's own codes. Subgraphs throw DomainError(code); the
// code fixes the HTTP status, and each edge (GraphQL extensions, REST bridge bodies) renders it in
// its own documented shape. Codes are written as the spec writes them (PRODUCT_NOT_FOUND,
// index_not_found, usr-not-registered); cross-cutting codes are UPPER_SNAKE.
//
// The kernel lists only the codes its own mechanisms raise (auth, request shape, limits, uploads).
// Each subgraph declares its own in its `error-codes.ts` with defineErrors() (a plain table, no
// registration), adds them to the ErrorCodes type by declaration merging, and sets them on its
// SubgraphDefinition. A process knows a code from: the kernel's table, the codes it was given at
// start (startSubgraph: the subgraph's own, useErrorCodes), and the generated contract
// (schema/contract.json, lib/contract.ts), which holds every service's: the gateway and the REST
// bridge render any service's code without importing its code.
import { GraphQLError } from 'graphql';
import { contractErrorCodes, loadContract, type ErrorDef } from './contract.js';

export type { ErrorDef };

const KERNEL_ERRORS = {
  // auth and request shape
  UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  INVALID_TOKEN: { status: 401, title: 'Invalid or expired token' },
  KEY_NOT_FOUND: { status: 401, title: 'Unknown API key' },
  KEY_EXPIRED: { status: 401, title: 'API key expired' },
  KEY_REVOKED: { status: 401, title: 'API key revoked' },
  APP_MISMATCH: { status: 401, title: 'API key does not belong to this app' },
  IP_NOT_ALLOWED: { status: 403, title: 'Client IP not allowed for this key' },
  ORIGIN_NOT_ALLOWED: { status: 403, title: 'Origin not allowed for this key' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Missing scope' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  RATE_LIMITED: { status: 429, title: 'Too many requests', rest: { snakeCode: 'rate_limit_exceeded' } },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such path' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  BAD_REQUEST: { status: 400, title: 'Bad request' },
  INVALID_JSON: { status: 400, title: 'Malformed JSON body' },
  INVALID_RESOURCE_TYPE: { status: 409, title: 'Wrong data.type for this endpoint' },
  VALIDATION_FAILED: { status: 422, title: 'Validation failed' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  QUERY_TOO_DEEP: { status: 400, title: 'Query too deep' },
  QUERY_TOO_COMPLEX: { status: 400, title: 'Query too complex' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, title: 'Invalid GraphQL operation' },
  BAD_USER_INPUT: { status: 400, title: 'Invalid input' },
  INTERNAL: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  UPLOAD_SIGNATURE_INVALID: { status: 403, title: 'Upload URL signature invalid' },
  UPLOAD_NOT_FOUND: { status: 404, title: 'Upload not found' },
  UPLOAD_EXPIRED: { status: 410, title: 'Upload URL expired' },
  // the gateway's response limit (MAX_RESPONSE_BYTES)
  RESPONSE_TOO_LARGE: { status: 400, title: 'Response too large' },
  // the gateway's registered operations (gateway/registered-operations.ts)
  OPERATION_NOT_REGISTERED: { status: 403, title: 'Operation not registered' },
  REGISTERED_OPERATIONS_ONLY: { status: 403, title: 'Only registered operations are accepted' },
  // resumable subscriptions (gateway/subscriptions/schema.ts): the resume point left the retention window
  RESUME_POINT_GONE: { status: 410, title: 'Resume point no longer retained' },
} as const satisfies Record<string, ErrorDef>;

/** The codes of one registration, for declaration merging into ErrorCodes. */
export type CodesOf<T extends Record<string, ErrorDef>> = { readonly [K in keyof T]: ErrorDef };

/**
 * Every code a DomainError may carry: the kernel's, plus each subgraph's, merged in by its errors
 * module (`declare module '../../lib/errors.js' { interface ErrorCodes extends CodesOf<...> {} }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ErrorCodes extends CodesOf<typeof KERNEL_ERRORS> {}

export type ErrorCode = keyof ErrorCodes & string;

/** A subgraph's codes, as declared (its error-codes.ts): returned as given, typed for declaration merging. */
export function defineErrors<const T extends Record<string, ErrorDef>>(codes: T): T {
  return codes;
}

type Known = ErrorDef & { owner: string };

/** The codes this process was given (the kernel's, then useErrorCodes); the contract's are read on first need. */
const given = new Map<string, Known>();
let fromContract: ReadonlyMap<string, Known> | undefined;

/**
 * Give this process `owner`'s codes (startSubgraph: the subgraph's own, so they hold even before
 * `npm run compose` writes them to the contract). A code belongs to one owner: giving it again from
 * another owner, or with another status, throws at start-up.
 */
export function useErrorCodes(owner: string, codes: Readonly<Record<string, ErrorDef>>): void {
  for (const [code, def] of Object.entries(codes)) {
    const known = given.get(code);
    if (known && (known.owner !== owner || known.status !== def.status)) {
      throw new Error(`error code ${code} is registered by ${known.owner} (status ${known.status}); ${owner} registers it again (status ${def.status})`);
    }
    given.set(code, { ...def, owner });
  }
}

useErrorCodes('kernel', KERNEL_ERRORS);

/** Every service's codes from schema/contract.json, read once. */
function contractCodes(): ReadonlyMap<string, Known> {
  return (fromContract ??= contractErrorCodes(loadContract()));
}

/** The definition of a known code. */
export function errorDef(code: string): Known | undefined {
  return given.get(code) ?? contractCodes().get(code);
}

/** Every known code and its definition (for documentation and tests): the kernel's and every service's. */
export function registeredErrors(): ReadonlyMap<string, Known> {
  return new Map([...contractCodes(), ...given]);
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && errorDef(code) !== undefined;
}

export function statusOf(code: string): number {
  return errorDef(code)?.status ?? 500;
}

export function titleOf(code: string): string | undefined {
  return errorDef(code)?.title;
}

/**
 * Why a named parameter was refused, where the kind matters to an edge: `missing` (no value at all)
 * and `unknown` (a name the endpoint does not take) are not malformed values, so the REST bridge
 * never answers them with a service's code for a malformed value (rest-bridge/documented-codes.ts).
 */
export type RefusalReason = 'missing' | 'unknown';

export const isRefusalReason = (v: unknown): v is RefusalReason => v === 'missing' || v === 'unknown';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly opts: { parameter?: string; meta?: Record<string, unknown>; reason?: RefusalReason } = {},
  ) {
    super(message ?? titleOf(code) ?? code);
    this.name = 'DomainError';
  }

  /** From the code's definition; a code this process does not know is a 500. */
  get status(): number {
    return statusOf(this.code);
  }
}

/** The GraphQL form of a domain error: code, status and offending parameter in `extensions`. */
export function toGraphQLError(err: DomainError): GraphQLError {
  return new GraphQLError(err.message, {
    extensions: {
      code: err.code,
      status: err.status,
      ...(err.opts.parameter ? { parameter: err.opts.parameter } : {}),
      ...(err.opts.reason ? { reason: err.opts.reason } : {}),
      ...(err.opts.meta ? { meta: err.opts.meta } : {}),
      http: { status: err.status },
    },
  });
}
