// Error codes: the mechanism, and the kernel's own codes. Subgraphs throw DomainError(code); the
// code fixes the HTTP status, and each edge (GraphQL extensions, REST bridge bodies) renders it in
// its own documented shape. Codes are written as the spec writes them (PRODUCT_NOT_FOUND,
// index_not_found, usr-not-registered); cross-cutting codes are UPPER_SNAKE.
//
// The kernel lists only the codes its own mechanisms raise (auth, request shape, limits, uploads).
// Each subgraph registers its own codes in its `errors.ts` with registerErrors() and adds them to the
// ErrorCodes type by declaration merging (see subgraphs/catalog/errors.ts); the process that throws
// them imports that module (the subgraph's index.ts), and the edges that render them (gateway, REST
// bridge) import every service's.
import { GraphQLError } from 'graphql';

/** What an edge needs to know about a code. */
export interface ErrorDef {
  status: number;
  title: string;
  /** REST bridge rendering, for codes that differ from the service's rule */
  rest?: {
    /** the spelling on services that write codes in lower snake case (default: the code lower-cased, '-' → '_') */
    snakeCode?: string;
    /** rendered alone as `{ error: { code, message, status } }` instead of in the service's error list */
    singleObjectBody?: boolean;
  };
}

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

const registry = new Map<string, ErrorDef & { owner: string }>();

/**
 * Register `owner`'s codes (a subgraph name, or 'kernel'). A code belongs to one owner: registering
 * it again from another owner, or with another status, throws at start-up. Returns `codes` as given.
 */
export function registerErrors<const T extends Record<string, ErrorDef>>(owner: string, codes: T): T {
  for (const [code, def] of Object.entries(codes)) {
    const known = registry.get(code);
    if (known && (known.owner !== owner || known.status !== def.status)) {
      throw new Error(`error code ${code} is registered by ${known.owner} (status ${known.status}); ${owner} registers it again (status ${def.status})`);
    }
    registry.set(code, { ...def, owner });
  }
  return codes;
}

registerErrors('kernel', KERNEL_ERRORS);

/** The definition of a registered code. */
export function errorDef(code: string): (ErrorDef & { owner: string }) | undefined {
  return registry.get(code);
}

/** Every registered code and its definition (for documentation and tests). */
export function registeredErrors(): ReadonlyMap<string, ErrorDef & { owner: string }> {
  return registry;
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && registry.has(code);
}

export function statusOf(code: string): number {
  return registry.get(code)?.status ?? 500;
}

export function titleOf(code: string): string | undefined {
  return registry.get(code)?.title;
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

  /** From the registration of the code; a code its owner never registered in this process is a 500. */
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
