// The gateway's half of the input policy (lib/input-policy.ts has the shared half): checks of a
// GraphQL request before anything is planned or sent to a subgraph, each a 400 with a code.
//  - the HTTP body: depth, key counts, forbidden keys, NUL and lone surrogates (lib/input-policy);
//  - an operationName that names no operation (or none given for a document of several): BAD_REQUEST;
//  - a subscription over HTTP: BAD_REQUEST (subscriptions are served over graphql-transport-ws);
//  - variables coerced here with at most MAX_VARIABLE_ERRORS errors, each message bounded (the value
//    is never echoed whole): graphql-js reports every unknown key of an input object with the whole
//    value inlined, which is quadratic in the key count (1,000 keys: 11 MB, seconds of CPU);
//  - documents of at most MAX_QUERY_TOKENS tokens (set in gateway.ts as Apollo's parseOptions).
import {
  GraphQLError,
  coerceInputValue,
  getOperationAST,
  isInputType,
  isNonNullType,
  typeFromAST,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { HeaderMap, type GraphQLRequestContext } from '@apollo/server';
import { DomainError } from '../lib/errors.js';
import { checkJsonValue, checkQueryString, parseCheckedJson } from '../lib/input-policy.js';
import type { OperationHooks, OperationPlugin } from './operation-plugins.js';

export const MAX_VARIABLE_ERRORS = 10;
/** Longest echo of an offending value inside an error message. */
const MAX_VALUE_ECHO = 80;
/** Most tokens a GraphQL document may have (MAX_QUERY_TOKENS): validation costs ~10 µs per token. */
export const DEFAULT_MAX_TOKENS = 5000;
/** Largest GraphQL response body the gateway sends (MAX_RESPONSE_BYTES). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const badRequest = (message: string, code = 'BAD_REQUEST', parameter?: string) =>
  new GraphQLError(message, { extensions: { code, status: 400, http: { status: 400 }, ...(parameter ? { parameter } : {}) } });

/** The body parser answerGraphQL uses at the gateway: the shared JSON policy, then a GraphQL shape check. */
export function parseGraphQLBody(text: string): unknown {
  return parseCheckedJson(text);
}

/** GET /graphql?query=…&variables=…: the query string policy, and the JSON policy on `variables` and `extensions`. */
export function checkGraphQLSearch(search: string): void {
  checkQueryString(search);
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  for (const name of ['variables', 'extensions']) {
    const v = params.get(name);
    if (v) {
      try {
        parseCheckedJson(v, (p) => (p ? `${name}.${p}` : name));
      } catch (e) {
        if (e instanceof DomainError && e.code === 'INVALID_JSON') continue; // Apollo answers malformed JSON itself
        throw e;
      }
    }
  }
}

/** The operation the request runs, or a 400 saying why there is none. */
export function resolveOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode {
  const op = getOperationAST(document, operationName ?? undefined);
  if (op) return op;
  if (operationName) throw badRequest(`Unknown operation named "${operationName}"`, 'BAD_REQUEST', 'operationName');
  throw badRequest('The document has several operations: operationName must name one', 'BAD_REQUEST', 'operationName');
}

/** A bounded echo of a value: scalars (strings cut at MAX_VALUE_ECHO), `[…]` and `{…}` for containers. */
function short(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > MAX_VALUE_ECHO ? `${value.slice(0, MAX_VALUE_ECHO)}…` : value);
  if (Array.isArray(value)) return '[…]';
  if (value !== null && typeof value === 'object') return '{…}';
  return String(value);
}

function printPath(path: readonly (string | number)[]): string {
  return path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
}

/**
 * Coerce the operation's variables as graphql-js would, stopping at `max` errors, each message in
 * the graphql-js wording (the REST bridge reads `at "input.price"` from it) with the value shortened.
 */
export function variableErrors(schema: GraphQLSchema, op: OperationDefinitionNode, inputs: Record<string, unknown>, max = MAX_VARIABLE_ERRORS): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const stop = Symbol('stop');
  const add = (message: string, parameter: string) => {
    errors.push(new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', status: 400, http: { status: 400 }, parameter } }));
    if (errors.length >= max) throw stop;
  };
  try {
    for (const def of op.variableDefinitions ?? []) {
      const name = def.variable.name.value;
      const type = typeFromAST(schema, def.type);
      if (!type || !isInputType(type)) continue; // a validation error already
      if (!Object.prototype.hasOwnProperty.call(inputs, name)) {
        if (!def.defaultValue && isNonNullType(type)) add(`Variable "$${name}" of required type "${String(type)}" was not provided.`, name);
        continue;
      }
      const value = inputs[name];
      if (value === null && isNonNullType(type)) {
        add(`Variable "$${name}" of non-null type "${String(type)}" must not be null.`, name);
        continue;
      }
      coerceInputValue(value, type, (path, invalid, error) => {
        const at = path.length ? ` at "${name}${printPath(path)}"` : '';
        const reason = error.message.length > 300 ? `${error.message.slice(0, 300)}…` : error.message;
        add(`Variable "$${name}" got invalid value ${short(invalid)}${at}; ${reason}`, `${name}${printPath(path)}`);
      });
    }
  } catch (e) {
    if (e !== stop) throw e;
    errors.push(new GraphQLError(`More than ${max} invalid variable values; the rest were not checked`, { extensions: { code: 'BAD_USER_INPUT', status: 400, http: { status: 400 } } }));
  }
  return errors;
}

function formatted(e: GraphQLError): GraphQLFormattedError {
  const { http: _http, ...extensions } = e.extensions as Record<string, unknown>;
  return { message: e.message, extensions };
}

/**
 * The Apollo plugin: resolves the operation (400 for none), refuses subscriptions over HTTP, and
 * answers capped variable errors itself (all of them, up to the cap) instead of letting the
 * gateway coerce unbounded.
 */
export function requestPolicyPlugin(schema: () => GraphQLSchema | undefined): OperationPlugin<any> {
  const refused = new WeakMap<object, GraphQLError[]>();
  // one set of hooks for every request (its state is in `refused`, by request)
  const hooks: OperationHooks<any> = {
    didResolveOperation(rc: GraphQLRequestContext<any>) {
      const op = resolveOperation(rc.document!, rc.request.operationName);
      if (op.operation === 'subscription') {
        throw badRequest('Subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, not over HTTP POST');
      }
      const s = schema();
      // the variables' JSON was checked by the body policy (parseGraphQLBody / checkGraphQLSearch)
      if (!s) return;
      const errors = variableErrors(s, op, rc.request.variables ?? {});
      if (errors.length) refused.set(rc, errors);
    },
    responseForOperation(rc: GraphQLRequestContext<any>) {
      const errors = refused.get(rc);
      if (!errors) return null;
      return { http: { status: 400, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: errors.map(formatted) } } };
    },
  };
  return { requestDidStart: () => hooks };
}

/** For graphql-ws onSubscribe: the same checks, as a list of errors (empty when the request may run). */
export function subscribeRequestErrors(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: unknown): GraphQLError[] {
  try {
    const op = resolveOperation(document, operationName);
    const vars = (variables && typeof variables === 'object' ? variables : {}) as Record<string, unknown>;
    checkJsonValue(vars, 'variables');
    return variableErrors(schema, op, vars);
  } catch (e) {
    if (e instanceof GraphQLError) return [e];
    if (e instanceof DomainError) return [badRequest(e.message, e.code, e.opts.parameter)];
    throw e;
  }
}
