// THE one place where errors become REST bodies. Everything that fails (a GraphQL error from the
// gateway, a gateway auth refusal, a bridge-side DomainError, an unexpected exception) is first
// normalised to a RestError {code, status, message, parameter}, then rendered in the documented
// shape of the route's service. Statuses come from the error's extensions, else the code's
// definition (lib/errors.ts: the kernel's codes and every service's from schema/contract.json), else 500.
import { DomainError, errorDef, isErrorCode, isRefusalReason, statusOf, titleOf, type RefusalReason } from '../lib/errors.js';
import { EXTRA_ATTRIBUTES_FIELD } from '../lib/extra-attributes.js';
import { isPlainObject } from './jsonapi.js';
import { restMessage, restName, restParameter as restSpelling, type QueryName } from './naming.js';
import { freeFormNames } from './api-schema.js';
import { documentedCode } from './documented-codes.js';
import type { Service } from './types.js';

export interface RestError {
  code: string;
  status: number;
  message: string;
  parameter?: string;
  /** JSON:API `source.pointer` (`/data/attributes/price/amount`) when `parameter` names a body member */
  pointer?: string;
  /** a missing or unknown parameter, as opposed to a malformed value (lib/errors.ts RefusalReason) */
  reason?: RefusalReason;
}

export interface GraphQLErrorLike {
  message?: unknown;
  extensions?: unknown;
}

/**
 * Codes that mean the bridge's own operation is wrong (it no longer matches the supergraph, or
 * trips the gateway's limits): the client did nothing wrong, so they render as 500 and are logged.
 */
const BRIDGE_FAULTS = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_DEEP',
  'QUERY_TOO_COMPLEX',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
]);

export const INTERNAL: RestError = Object.freeze({ code: 'INTERNAL', status: 500, message: 'Internal server error' });

export function isBridgeFault(e: GraphQLErrorLike): boolean {
  const ext = isPlainObject(e.extensions) ? e.extensions : {};
  return typeof ext.code === 'string' && BRIDGE_FAULTS.has(ext.code);
}

export function restError(code: string, message?: string, parameter?: string): RestError {
  const known = errorDef(code);
  return { code, status: known?.status ?? 500, message: message ?? known?.title ?? 'Internal server error', ...(parameter ? { parameter } : {}) };
}

export function fromDomainError(e: DomainError): RestError {
  return { code: e.code, status: e.status, message: e.message, ...(e.opts.parameter ? { parameter: e.opts.parameter } : {}), ...(e.opts.reason ? { reason: e.opts.reason } : {}) };
}

/**
 * A GraphQL error (from `errors[]` of a 200, or of a gateway 4xx refusal) as a RestError; its
 * parameter, named in GraphQL terms, in REST spelling (naming.ts), the route's query parameters
 * (`query`) named as the route writes them.
 */
export function fromGraphQLError(e: GraphQLErrorLike, httpStatus?: number, query: readonly QueryName[] = []): RestError {
  const ext = isPlainObject(e.extensions) ? e.extensions : {};
  const code = typeof ext.code === 'string' && ext.code ? ext.code : 'INTERNAL';
  const message = typeof e.message === 'string' && e.message ? e.message : undefined;
  if (BRIDGE_FAULTS.has(code)) return INTERNAL;
  // Variable coercion failures can only come from body attributes (path and query values are
  // validated here first): they are attribute validation errors, like the subgraphs' own.
  if (code === 'BAD_USER_INPUT') return coercionError(message ?? 'Invalid input');
  const status = httpStatusOf(ext.status) ?? (isErrorCode(code) ? statusOf(code) : undefined) ?? httpStatusOf(httpStatus) ?? 500;
  // An unknown 5xx may carry internals (driver messages, hostnames): mask it.
  if (status >= 500 && !isErrorCode(code)) return { ...INTERNAL, status };
  const given = typeof ext.parameter === 'string' && ext.parameter ? ext.parameter : undefined;
  const parameter = given ? restParameter(given, query) : undefined;
  const reason = isRefusalReason(ext.reason) ? ext.reason : undefined;
  const text = message ? restMessage(message, given, query, freeFormNames()) : restError(code).message;
  return { code, status, message: text, ...(parameter ? { parameter } : {}), ...(reason ? { reason } : {}) };
}

/**
 * Attributes kept as given travel in the input's `extraAttributes` (lib/extra-attributes.ts); on
 * REST they are attributes like any other: `extraAttributes.colour` is `colour`, the set as a
 * whole is `data.attributes`.
 */
function restParameter(parameter: string, query: readonly QueryName[]): string {
  if (parameter === EXTRA_ATTRIBUTES_FIELD) return 'data.attributes';
  return parameter.startsWith(`${EXTRA_ATTRIBUTES_FIELD}.`) ? parameter.slice(EXTRA_ATTRIBUTES_FIELD.length + 1) : restSpelling(parameter, query, freeFormNames());
}

function httpStatusOf(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 400 && v <= 599 ? v : undefined;
}

/**
 * graphql-js coercion messages → 422 VALIDATION_FAILED naming the REST attribute:
 *   Variable "$input" got invalid value {…} at "input.price"; Field "currency" of required type "String!" was not provided.
 * becomes parameter "price.currency", message "price.currency is required". The echoed value is
 * dropped (it can be large, and it is the client's own data).
 */
export function coercionError(message: string): RestError {
  // an arguments-style body's required attribute left out: `Variable "$enabled" of required type "Boolean!" was not provided.`
  const missing = /^Variable "\$(\w+)" of required type/.exec(message)?.[1];
  if (missing && missing !== 'input') {
    const parameter = restName(missing);
    return { code: 'VALIDATION_FAILED', status: 422, message: `${parameter} is required`, parameter, reason: 'missing' };
  }
  const at = [...message.matchAll(/ at "([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)"; /g)].pop();
  const reasons = [...message.matchAll(/; (Field "|Expected |[A-Z]\w* cannot represent |Variable ")/g)].pop();
  let reason = reasons ? message.slice(reasons.index + 2) : message;
  // the first segment is the GraphQL variable: the body itself for `$input` routes, else the
  // attribute it carries (arguments-style bodies: `$tiers` at "tiers[0].price.amount")
  const variable = /^Variable "\$(\w+)" got invalid value/.exec(message)?.[1];
  const path = at ? at[1].split('.') : variable ? [variable] : [];
  const segments = path[0] === 'input' ? path.slice(1) : path;
  const field = /^Field "(\w+)" (of required type|is not defined by type)/.exec(reason);
  if (field) segments.push(field[1]);
  const parameter = segments.map((s) => s.replace(/^(\w+)/, (w) => restName(w))).join('.') || undefined;
  let kind: RefusalReason | undefined;
  if (field?.[2] === 'of required type') [reason, kind] = ['is required', 'missing'];
  else if (field) [reason, kind] = ['is not a known attribute', 'unknown'];
  else if (/^Variable "\$\w+" of required type/.test(reason)) [reason, kind] = ['data.attributes are required', 'missing'];
  const text = parameter && field ? `${parameter} ${reason}` : parameter ? `${parameter}: ${reason}` : reason;
  return { code: 'VALIDATION_FAILED', status: 422, message: text, ...(parameter ? { parameter } : {}), ...(kind ? { reason: kind } : {}) };
}

/**
 * A generic refusal of a given attribute value (VALIDATION_FAILED, from GraphQL coercion, the bridge
 * or a service) becomes the code the service's error table names for that condition
 * (documented-codes.ts).
 */
export function withDocumentedCode(service: Service, e: RestError): RestError {
  // a missing value or an unknown attribute stays VALIDATION_FAILED ("filter is required" is no
  // syntax error): the tables name malformed values. Told apart by the refusal's typed reason.
  if (e.code !== 'VALIDATION_FAILED' || e.reason) return e;
  const code = documentedCode(service, e.parameter);
  return code ? { ...e, code, status: statusOf(code) } : e;
}

/** One status for several errors: theirs when they agree, 400 for mixed 4xx, else 500. */
export function overallStatus(errors: readonly RestError[]): number {
  const statuses = new Set(errors.map((e) => e.status));
  if (statuses.size === 1) return errors[0].status;
  return [...statuses].every((s) => s < 500) ? 400 : 500;
}

/** ACCOUNT_NOT_FOUND → account_not_found; a code's registration may name its own spelling (RATE_LIMITED → rate_limit_exceeded, the spec's name). */
export function lowerSnakeCode(code: string): string {
  return errorDef(code)?.rest?.snakeCode ?? code.toLowerCase().replace(/-/g, '_');
}

/** How each service writes a code: products keep the spec's UPPER_SNAKE; AI keeps its kebab codes; the others lower snake case. */
export function codeFor(service: Service, code: string): string {
  if (service === 'products') return code;
  if (service === 'ai' && code.includes('-')) return code;
  return lowerSnakeCode(code);
}

function titleFor(e: RestError): string {
  return titleOf(e.code) ?? e.message;
}

function listShape(service: Service, errors: readonly RestError[]) {
  return {
    errors: errors.map((e) => ({
      status: String(e.status),
      code: codeFor(service, e.code),
      title: titleFor(e),
      detail: e.message,
      ...(e.parameter ? { source: { parameter: e.parameter, ...(e.pointer ? { pointer: e.pointer } : {}) } } : {}),
    })),
  };
}

/**
 * The JSON:API pointer of a body member named the way errors name it: `data.type` → `/data/type`,
 * `price.amount` → `/data/attributes/price/amount` (`/data/price/amount` for bodies written under
 * `data`), `documents[3].id` → `/data/attributes/documents/3/id`; undefined when `attributes` (the
 * route's body attributes) has no member of that name (a query or path parameter).
 */
export function bodyPointer(parameter: string, attributes: readonly string[], inData = false): string | undefined {
  const segments = parameter.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');
  if (segments[0] === 'data') return `/${segments.map(escapePointer).join('/')}`;
  if (!attributes.includes(segments[0])) return undefined;
  return `/data${inData ? '' : '/attributes'}/${segments.map(escapePointer).join('/')}`;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * An error body with the request's id (X-Request-Id), to quote when reporting a problem: the
 * platform's flat body gets `request_id` beside `error`; list bodies (and AI's single-object body)
 * a top-level JSON:API `meta: { request_id }`.
 */
export function withRequestId(body: unknown, requestId: string): unknown {
  if (!isPlainObject(body)) return body;
  return typeof body.error === 'string' ? { ...body, request_id: requestId } : { ...body, meta: { request_id: requestId } };
}

/** The documented body (and status) of `errors` for a route of `service`. */
export function renderErrors(service: Service, errors: readonly RestError[]): { status: number; body: unknown } {
  const list = errors.length ? errors : [INTERNAL];
  const status = overallStatus(list);
  switch (service) {
    case 'platform': {
      const e = list[0];
      return { status, body: { error: codeFor('platform', e.code), message: e.message, status, ...(e.parameter ? { parameter: e.parameter } : {}) } };
    }
    case 'ai': {
      // Shape B: the spec's single-object body, for the codes registered with it (the unregistered user).
      const single = list.find((e) => errorDef(e.code)?.rest?.singleObjectBody);
      if (single) return { status: single.status, body: { error: { code: single.code, message: single.message, status: single.status } } };
      return { status, body: listShape('ai', list) };
    }
    default:
      return { status, body: listShape(service, list) };
  }
}
