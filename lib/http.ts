// Small node:http helpers shared by the gateway, the subgraphs and the REST bridge.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse, Server } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext, type GraphQLResponse, type HTTPGraphQLRequest } from '@apollo/server';
import { ConfigError } from './config.js';
import { DomainError } from './errors.js';
import { labelRoute } from './metrics.js';
import type { ExecutorAnswer, GraphQLExecutor } from './graphql-executor.js';

/** What an edge (the gateway) checks of a GraphQL HTTP request before Apollo sees it (lib/input-policy.ts). */
export interface GraphQLEdgePolicy {
  /** parses and checks a POST body; throws DomainError (400 with its code) or any error for malformed JSON */
  parseBody(text: string): unknown;
  /** checks the query string of a GET; throws DomainError */
  checkSearch(search: string): void;
  /** the largest response body sent; a larger one becomes a 400 RESPONSE_TOO_LARGE */
  maxResponseBytes: number;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
  }
}

export const MiB = 1024 * 1024;

/** Read a request body up to `limit` bytes; throws BodyTooLargeError past it (without buffering the rest). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A GraphQL request as an edge received it: over HTTP (readGraphQLCall) or in process (the REST bridge's calls). */
export interface GraphQLCall {
  method: string;
  headers: IncomingHttpHeaders;
  /** path and query string */
  url: string;
  /** the POST body's bytes */
  raw?: Buffer;
  /** the POST body as a value, from an in-process caller that built it (no bytes to parse or check) */
  parsed?: unknown;
}

/** A whole GraphQL answer: status, headers, body text. */
export interface GraphQLAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * For a caller in this process that handed its request over as a value (`GraphQLCall.parsed`):
   * the result itself; `body` is then serialised only when read, so the caller need not parse it.
   */
  value?: unknown;
  /** the metrics label of the operation (lib/metrics.ts) */
  route: string;
}

/** Answers whose body is already encoded (storedAnswer): sendAnswer writes these bytes as they are. */
const encodedBodies = new WeakMap<GraphQLAnswer, { bytes: Buffer; text?: string }>();

/**
 * An answer whose body is stored bytes (a cached answer), sent with no encoding per request: `body`
 * decodes them only when read; replacing `body` (a later hook rewriting the answer) forgets the
 * bytes, and a copy of the answer (`{ ...a }`) is a plain answer, so what is sent is always `body`.
 * A hook that changes a part of the bytes can do so without decoding the rest (replaceAnswerBytes).
 */
export function storedAnswer(status: number, headers: Record<string, string>, bytes: Buffer, route: string): GraphQLAnswer {
  const stored: { bytes: Buffer; text?: string } = { bytes };
  const a: GraphQLAnswer = {
    status,
    headers,
    route,
    get body() {
      return (stored.text ??= stored.bytes.toString('utf8'));
    },
    set body(v: string) {
      stored.text = v;
      encodedBodies.delete(a);
    },
  };
  encodedBodies.set(a, stored);
  return a;
}

/** A stored answer's bytes (storedAnswer), as they will be sent; undefined for an answer whose body is text. */
export function answerBytes(a: GraphQLAnswer): Buffer | undefined {
  return encodedBodies.get(a)?.bytes;
}

/** Send `bytes` instead of a stored answer's bytes (`body` then reads them); false, and nothing done, for an answer whose body is text. */
export function replaceAnswerBytes(a: GraphQLAnswer, bytes: Buffer): boolean {
  const stored = encodedBodies.get(a);
  if (!stored) return false;
  stored.bytes = bytes;
  stored.text = undefined;
  return true;
}

export function jsonAnswer(status: number, body: unknown, route: string, headers: Record<string, string> = {}): GraphQLAnswer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body), route };
}

/** The 413 answer of a body over the limit, whichever way it arrived. */
function tooLargeBody(e: BodyTooLargeError): unknown {
  return { errors: [{ message: e.message, extensions: { code: 'PAYLOAD_TOO_LARGE', status: 413 } }] };
}

function domainErrorAnswer(e: DomainError, route: string): GraphQLAnswer {
  const parameter = e.opts.parameter ? { parameter: e.opts.parameter } : {};
  return jsonAnswer(e.status, { errors: [{ message: e.message, extensions: { code: e.code, status: e.status, ...parameter } }] }, route);
}

/**
 * Run one GraphQL request through Apollo Server with an edge's input policy: body size and JSON,
 * query-string checks, the response size bound. `context` gets the body bytes (POST) or the query
 * string (GET), for request-bound signatures.
 */
export async function answerGraphQL<C extends BaseContext>(
  server: ApolloServer<C>,
  call: GraphQLCall,
  context: (raw: Buffer | string) => Promise<C>,
  bodyLimit = MiB,
  policy?: GraphQLEdgePolicy,
): Promise<GraphQLAnswer> {
  let body: unknown;
  const method = call.method.toUpperCase();
  const raw = method === 'POST' && call.parsed === undefined ? (call.raw ?? Buffer.alloc(0)) : undefined;
  if (call.parsed !== undefined) body = call.parsed;
  else if (raw) {
    if (raw.length > bodyLimit) return jsonAnswer(413, tooLargeBody(new BodyTooLargeError(bodyLimit)), graphqlOperationLabel(undefined, call.url));
    try {
      body = raw.length ? (policy?.parseBody ?? JSON.parse)(raw.toString('utf8')) : undefined;
    } catch (e) {
      const route = graphqlOperationLabel(undefined, call.url);
      if (e instanceof DomainError && e.code !== 'INVALID_JSON') return domainErrorAnswer(e, route);
      return jsonAnswer(400, { errors: [{ message: 'Malformed JSON body', extensions: { code: 'INVALID_JSON', status: 400 } }] }, route);
    }
  }
  const route = graphqlOperationLabel(body, call.url);
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(call.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  const q = call.url.indexOf('?');
  const search = q >= 0 ? call.url.slice(q) : '';
  if (policy && q >= 0) {
    try {
      policy.checkSearch(search);
    } catch (e) {
      if (e instanceof DomainError) return domainErrorAnswer(e, route);
      throw e;
    }
  }
  if (call.parsed !== undefined) return answerInProcess(server, { method, headers, search, body }, await context(Buffer.alloc(0)), route);
  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method, headers, search, body },
    context: () => context(raw ?? search),
  });
  const out: Record<string, string> = {};
  for (const [k, v] of response.headers) out[k] = v;
  let text: string;
  if (response.body.kind === 'complete') text = response.body.string;
  else {
    text = '';
    for await (const chunk of response.body.asyncIterator) text += chunk;
  }
  if (policy && text.length > policy.maxResponseBytes) {
    delete out['content-length'];
    const message = `The response exceeds ${policy.maxResponseBytes} bytes; select fewer fields, fewer aliases or a smaller page`;
    return jsonAnswer(400, { errors: [{ message, extensions: { code: 'RESPONSE_TOO_LARGE', status: 400 } }] }, route, out);
  }
  return { status: response.status ?? 200, headers: out, body: text, route };
}

/**
 * A request an in-process caller handed over as a value (the REST bridge's calls to the gateway):
 * Apollo Server's operation pipeline (plugins, limits, execution, error formatting) without its
 * HTTP layer, so the result comes back as a value and is serialised only if someone reads `body`.
 * The response-size bound is not applied: the caller's operations are fixed and their pages bounded.
 */
async function answerInProcess<C extends BaseContext>(server: ApolloServer<C>, http: HTTPGraphQLRequest, contextValue: C, route: string): Promise<GraphQLAnswer> {
  const req = http.body as { query?: unknown; operationName?: unknown; variables?: unknown; extensions?: unknown };
  let response: GraphQLResponse;
  try {
    response = await server.executeOperation(
      {
        query: typeof req.query === 'string' ? req.query : undefined,
        operationName: typeof req.operationName === 'string' ? req.operationName : undefined,
        variables: req.variables as Record<string, unknown> | undefined,
        extensions: req.extensions as Record<string, unknown> | undefined,
        http,
      },
      { contextValue },
    );
  } catch {
    return jsonAnswer(500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] }, route);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  for (const [k, v] of response.http.headers) headers[k] = v;
  const value = response.body.kind === 'single' ? response.body.singleResult : { errors: [{ message: 'incremental delivery is not served in process', extensions: { code: 'BAD_REQUEST', status: 400 } }] };
  let text: string | undefined;
  return {
    status: response.http.status ?? 200,
    headers,
    route,
    value,
    get body() {
      return (text ??= JSON.stringify(value));
    },
  };
}

/**
 * A node:http GraphQL request as a GraphQLCall, its POST body read; a body over `bodyLimit` is
 * answered 413 without reading it all (then undefined: nothing left to do).
 */
export async function readGraphQLCall(req: IncomingMessage, res: ServerResponse, bodyLimit = MiB): Promise<GraphQLCall | undefined> {
  let raw: Buffer | undefined;
  if (req.method === 'POST') {
    try {
      raw = await readBody(req, bodyLimit);
    } catch (e) {
      if (!(e instanceof BodyTooLargeError)) throw e;
      sendJson(res, 413, tooLargeBody(e));
      return undefined;
    }
  }
  return { method: req.method ?? 'GET', headers: req.headers, url: req.url ?? '/', raw };
}

/** Hand a node:http request to Apollo Server (the 25 lines @apollo/server/standalone would give, minus express). */
export async function handleGraphQL<C extends BaseContext>(server: ApolloServer<C>, req: IncomingMessage, res: ServerResponse, context: (raw: Buffer | string) => Promise<C>): Promise<void> {
  const call = await readGraphQLCall(req, res);
  if (call) sendAnswer(req, res, await answerGraphQL(server, call, context));
}

/** Write an answer (labelled for the request metrics). */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: GraphQLAnswer): void {
  labelRoute(req, answer.route);
  // one writeHead with every header (merged with any set before): fewer steps than a setHeader each
  res.writeHead(answer.status, answer.headers);
  res.end(encodedBodies.get(answer)?.bytes ?? answer.body);
}

/**
 * Hand a node:http request to a subgraph's GraphQLExecutor (lib/graphql-executor.ts): POST with a
 * JSON body, or GET with the query string (queries only). `context` gets the body bytes (POST) or
 * the query string (GET), for request-bound signatures.
 */
export async function handleSubgraphGraphQL(
  executor: GraphQLExecutor,
  req: IncomingMessage,
  res: ServerResponse,
  context: (raw: Buffer | string) => Promise<unknown>,
  bodyLimit = MiB,
): Promise<void> {
  let answer: ExecutorAnswer;
  let body: unknown;
  if (req.method === 'POST') {
    let raw: Buffer;
    try {
      raw = await readBody(req, bodyLimit);
    } catch (e) {
      if (e instanceof BodyTooLargeError) return sendJson(res, 413, tooLargeBody(e));
      throw e;
    }
    ({ answer, body } = await executor.runText(raw.toString('utf8'), () => context(raw), bodyLimit));
  } else if (req.method === 'GET') {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const search = q >= 0 ? url.slice(q) : '';
    const params = new URLSearchParams(search);
    let variables: unknown;
    try {
      variables = params.has('variables') ? JSON.parse(params.get('variables')!) : undefined;
    } catch {
      return sendJson(res, 400, { errors: [{ message: '`variables` is not JSON', extensions: { code: 'INVALID_JSON', status: 400, parameter: 'variables' } }] });
    }
    body = { query: params.get('query') ?? undefined, operationName: params.get('operationName') ?? undefined, variables };
    answer = await executor.run(body, () => context(search), true);
  } else {
    return sendJson(res, 405, { errors: [{ message: 'GraphQL is served over POST (or GET for queries)', extensions: { code: 'METHOD_NOT_ALLOWED', status: 405 } }] }, { allow: 'GET, POST' });
  }
  labelRoute(req, graphqlOperationLabel(body, req.url));
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.text) });
  res.end(answer.text);
}

/** The operation name a GraphQL request gives (body or query string), for its metrics and trace. */
export function graphqlOperationLabel(body: unknown, url: string | undefined): string {
  const fromBody = body && typeof body === 'object' ? (body as { operationName?: unknown }).operationName : undefined;
  const name = typeof fromBody === 'string' ? fromBody : url?.includes('operationName=') ? new URL(url, 'http://x').searchParams.get('operationName') : undefined;
  return name ? `graphql ${name}` : 'graphql (anonymous)';
}

/**
 * Stop a server gracefully: no new connections, idle keep-alive connections closed at once, requests
 * in flight answered (Node closes their connections after the response), and whatever is still
 * open after `graceMs` cut. Resolves when the server has closed.
 */
export async function closeServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  try {
    await closed;
  } finally {
    clearTimeout(timer);
  }
}

/** listen() that turns EADDRINUSE into one clear line naming the variable; `reusePort`: SO_REUSEPORT (Node 22.12+ on Linux), several processes on one port. */
export function listen(server: Server, port: number, host: string, variable: string, opts: { reusePort?: boolean } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(e.code === 'EADDRINUSE' ? new ConfigError(variable, `port ${port} is already in use`) : e);
    };
    const onListening = () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    if (opts.reusePort) server.listen({ port, host, reusePort: true });
    else server.listen(port, host);
  });
}

export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}
