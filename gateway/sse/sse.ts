// GraphQL over Server-Sent Events on the gateway's /graphql (the graphql-sse protocol), beside
// graphql-ws and with what it has: authentication per request (API key or JWT, as HTTP), the origin
// rules of lib/cors.ts (the REST bridge's and the gateway's), the input limits, the tenant's topics
// (the Subscription root of subscriptions/schema.ts), open streams following their credentials
// (live-connections.ts), and resume: each event's `id:` is its id in the tenant's stream, and a
// client that reconnects with Last-Event-ID (or `extensions.resumeFrom`) gets the missed events.
//   distinct connections: POST (JSON body) or GET (query string) with Accept: text/event-stream,
//     one operation per response: `next` events, then `complete`.
//   single connection: PUT reserves a token; GET with X-GraphQL-Event-Stream-Token (or ?token=)
//     opens the stream; POST with the token and `extensions.operationId` starts an operation (202),
//     DELETE ?operationId= stops it; events carry `{ id: <operation id>, payload }`.
// docs/subscriptions.md describes both, the codes and the limits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { subscribe, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Logger } from '../../lib/logger.js';
import { corsHeaders, originAllowedWithoutKey, requestOrigin, responseOriginAllowed } from '../../lib/cors.js';
import type { ErrorCode } from '../../lib/errors.js';
import { BodyTooLargeError, MiB, readBody, sendAnswer, sendJson } from '../../lib/http.js';
import type { TenantContext } from '../../lib/tenant.js';
import type { Credentials } from '../auth/authenticate.js';
import { refusal } from '../graphql-answer.js';
import type { GatewayRoute } from '../hooks.js';
import { stoppingAnswer } from '../shutdown.js';
import { callerKey } from '../subscriptions/follow-up.js';
import { checkOperation, executeThroughApollo, isMutation, operationThroughHooks, resumePoint, type OperationRequest, type StreamingTransportDeps } from '../subscriptions/operation.js';
import { isSubscriptionOperation, type SubscriptionContext } from '../subscriptions/schema.js';
import { MAX_OPERATIONS_PER_STREAM, Reservations, type Reservation } from './reservations.js';
import { SseWriter } from './sse-writer.js';

export const STREAM_TOKEN_HEADER = 'x-graphql-event-stream-token';

export interface GatewaySse {
  routes: GatewayRoute[];
  /** end every open stream (clients reconnect elsewhere with Last-Event-ID) */
  dispose(): Promise<void>;
}

interface Caller {
  tenant: TenantContext;
  credentials?: Credentials;
  headers: Record<string, string>;
}

class Refused extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly parameter?: string) {
    super(message);
  }
}

export function createSse(deps: StreamingTransportDeps & { log: Logger }): GatewaySse {
  const { cfg, auth: edge, state } = deps;
  const limits = { ...deps.limits, maxDepth: cfg.maxQueryDepth, maxCost: cfg.maxQueryCost };
  const reservations = new Reservations();
  const open = new Set<SseWriter>();

  const route: GatewayRoute = {
    path: '/graphql',
    accepts: (req) => req.method === 'PUT' || req.method === 'DELETE' || !!streamToken(req) || acceptsEventStream(req),
    // an unexpected failure reaches the router, which logs it and answers 500 INTERNAL if nothing was sent
    handle: (req, res) => handle(req, res),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (state.stopping) {
      const a = stoppingAnswer();
      res.writeHead(a.status, a.headers);
      return void res.end(a.body);
    }
    const caller = await authenticate(req, res);
    if (!caller) return;
    const token = streamToken(req);
    try {
      if (req.method === 'PUT') return reserve(res, caller);
      if (token) return await onReservation(req, res, caller, token);
      if (req.method === 'GET' || req.method === 'POST') return await distinct(req, res, caller);
      throw new Refused(405, 'METHOD_NOT_ALLOWED', `${req.method} /graphql needs ${STREAM_TOKEN_HEADER}`);
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      refuse(res, e, caller.headers);
    }
  }

  /** The caller, or undefined once refused (in the gateway's error shape, with the CORS headers it may read). */
  async function authenticate(req: IncomingMessage, res: ServerResponse): Promise<Caller | undefined> {
    const origin = requestOrigin(req);
    const auth = await edge.authenticator.authenticate(req.headers, edge.clientAddress(req.socket.remoteAddress, req.headers));
    const headers = origin ? corsHeaders(origin, responseOriginAllowed(req, origin, auth.ok ? { ok: true, kind: auth.tenant.kind } : auth, cfg.corsOrigins)) : {};
    // as POST /graphql refuses: the code's status, Retry-After when rate limited or a service is unavailable
    if (!auth.ok) {
      const a = refusal(auth, 'graphql (sse)');
      return void sendAnswer(req, res, { ...a, headers: { ...headers, ...a.headers } });
    }
    if (auth.tenant.kind === 'anonymous') return void refuse(res, new Refused(401, 'UNAUTHENTICATED', 'An API key or a token is required for GraphQL over SSE'), headers);
    // as over WebSocket: a non-key stream from a page of another origin is refused, not only unreadable
    if (origin && auth.tenant.kind !== 'key' && !originAllowedWithoutKey(req, origin, cfg.corsOrigins))
      return void refuse(res, new Refused(403, 'ORIGIN_NOT_ALLOWED', 'Origin not allowed'), headers);
    return { tenant: auth.tenant, credentials: auth.credentials, headers };
  }

  function reserve(res: ServerResponse, caller: Caller): void {
    const r = reservations.reserve(callerKey(caller.tenant));
    res.writeHead(201, { ...caller.headers, 'content-type': 'text/plain; charset=utf-8' });
    res.end(r.token);
  }

  async function onReservation(req: IncomingMessage, res: ServerResponse, caller: Caller, token: string): Promise<void> {
    const r = reservations.find(token, callerKey(caller.tenant));
    if (!r) throw new Refused(404, 'NOT_FOUND', 'Unknown event stream token', STREAM_TOKEN_HEADER);
    if (req.method === 'GET') return openReserved(res, caller, r);
    if (req.method === 'DELETE') {
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('operationId');
      if (!id) throw new Refused(400, 'BAD_USER_INPUT', 'operationId is required', 'operationId');
      r.operations.get(id)?.();
      res.writeHead(200, caller.headers);
      return void res.end();
    }
    if (req.method !== 'POST') throw new Refused(405, 'METHOD_NOT_ALLOWED', `${req.method} is not part of the single connection mode`);
    const op = await readOperation(req);
    const opId = op.extensions?.operationId;
    if (typeof opId !== 'string' || !opId) throw new Refused(400, 'BAD_USER_INPUT', 'extensions.operationId is required in single connection mode', 'extensions.operationId');
    const writer = r.writer;
    if (!writer) throw new Refused(409, 'CONFLICT', 'Open the event stream (GET with the token) before starting operations');
    if (r.operations.has(opId)) throw new Refused(409, 'CONFLICT', `Operation ${opId} is already running`, 'extensions.operationId');
    if (r.operations.size >= MAX_OPERATIONS_PER_STREAM) throw new Refused(400, 'BAD_REQUEST', `At most ${MAX_OPERATIONS_PER_STREAM} operations run on one stream`);
    const { doc, ctx } = await prepare(op, caller);
    res.writeHead(202, caller.headers);
    res.end();
    const done = start(op, doc, ctx, (result, id) => writer.next({ id: opId, payload: result }, id));
    r.operations.set(opId, done.stop);
    void done.finished.then(() => {
      if (r.operations.get(opId) === done.stop) r.operations.delete(opId);
      writer.complete({ id: opId });
    });
  }

  function openReserved(res: ServerResponse, caller: Caller, r: Reservation): void {
    if (r.writer) throw new Refused(409, 'CONFLICT', 'The event stream of this token is already open', STREAM_TOKEN_HEADER);
    const writer = stream(res, caller, () => reservations.release(r));
    r.writer = writer;
  }

  async function distinct(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const op = await readOperation(req);
    const lastEventId = req.headers['last-event-id'];
    const { doc, ctx } = await prepare(op, caller, { value: Array.isArray(lastEventId) ? lastEventId[0] : lastEventId, parameter: 'Last-Event-ID' });
    // as GET /graphql: a write is never a GET
    if (req.method === 'GET' && isMutation(doc, op.operationName)) throw new Refused(405, 'METHOD_NOT_ALLOWED', 'Mutations are sent with POST');
    const running: { stop?: () => void } = {};
    const writer = stream(res, caller, () => running.stop?.());
    const done = start(op, doc, ctx, (result, id) => writer.next(result, id));
    running.stop = done.stop;
    await done.finished;
    writer.complete();
    writer.end();
  }

  /** The checked document and the operation's context, or a Refused (400, naming what is wrong). */
  async function prepare(op: OperationRequest, caller: Caller, lastEventId?: { value: string | undefined; parameter: string }): Promise<{ doc: DocumentNode; ctx: SubscriptionContext }> {
    const schema = deps.schema();
    if (!schema) throw new Refused(503, 'SERVICE_UNAVAILABLE', 'The gateway is starting; retry shortly');
    // the features' hooks (registered operations): a registered document put in, or the refusal (403 and its code)
    const through = await operationThroughHooks(deps.hooks, op, caller.tenant);
    if ('refused' in through) {
      const ext = through.refused.extensions as { code: string; status: number };
      throw Object.assign(new Refused(ext.status, ext.code, through.refused.message), { errors: [{ message: through.refused.message, extensions: ext }] });
    }
    const checked = checkOperation(schema, through.req, limits);
    if ('errors' in checked) throw Object.assign(new Refused(400, 'GRAPHQL_VALIDATION_FAILED', checked.errors[0].message), { errors: checked.errors });
    const at = resumePoint(op, lastEventId);
    if ('error' in at) throw new Refused(400, 'BAD_USER_INPUT', at.error.message, at.error.extensions.parameter as string);
    return { doc: checked.doc, ctx: { tenant: caller.tenant, stream: { resumeFrom: at.resumeFrom } } };
  }

  /** An open event stream, tracked for shutdown and following the caller's credentials. */
  function stream(res: ServerResponse, caller: Caller, onClose: () => void): SseWriter {
    const live: { forget?: () => void } = {};
    const writer = new SseWriter(res, () => {
      open.delete(writer);
      live.forget?.();
      onClose();
    });
    open.add(writer);
    writer.open(caller.headers);
    live.forget = edge.connections.add({ close: (code, reason) => writer.end(`closed ${code}: ${reason}`) }, caller.tenant, caller.credentials);
    return writer;
  }

  /** Runs one operation, each result to `emit` with its event id; `stop` ends a subscription early. */
  function start(op: OperationRequest, doc: DocumentNode, ctx: SubscriptionContext, emit: (r: ExecutionResult, eventId?: string) => void) {
    let iterator: AsyncIterator<ExecutionResult> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      void iterator?.return?.();
    };
    const finished = (async () => {
      if (!isSubscriptionOperation(doc, op.operationName)) return emit(await executeThroughApollo(deps.apollo, deps.hooks, { document: doc, ...op }, ctx));
      const r = await subscribe({ schema: deps.schema()!, document: doc, variableValues: op.variables ?? undefined, operationName: op.operationName ?? undefined, contextValue: ctx });
      if (!(Symbol.asyncIterator in r)) return emit(r);
      iterator = r;
      if (stopped) return void (await r.return?.());
      for (;;) {
        const next = await r.next();
        if (next.done || stopped) return;
        emit(next.value, ctx.stream?.lastEventId);
        if (ctx.stream) ctx.stream.lastEventId = undefined;
      }
    })().catch((e) => {
      deps.log.error('SSE operation failed', { err: e });
      emit({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] } as unknown as ExecutionResult);
    });
    return { stop, finished };
  }

  return {
    routes: [route],
    async dispose() {
      for (const w of open) w.end('the gateway is shutting down; reconnect with Last-Event-ID');
    },
  };
}

function acceptsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

function streamToken(req: IncomingMessage): string | undefined {
  const h = req.headers[STREAM_TOKEN_HEADER];
  const v = Array.isArray(h) ? h[0] : h;
  if (v) return v;
  // the URL is parsed only when it can carry a token: every plain POST /graphql is asked this
  const url = req.url ?? '/';
  return url.includes('token=') ? new URL(url, 'http://x').searchParams.get('token') || undefined : undefined;
}

/** The operation of a POST (JSON body) or GET (query string: query, variables, operationName, extensions). */
async function readOperation(req: IncomingMessage): Promise<OperationRequest> {
  let raw: Record<string, unknown>;
  if (req.method === 'POST') {
    let body: Buffer;
    try {
      body = await readBody(req, MiB);
    } catch (e) {
      if (e instanceof BodyTooLargeError) throw new Refused(413, 'PAYLOAD_TOO_LARGE', e.message);
      throw e;
    }
    raw = parseJson(body.toString('utf8'), 'body') as Record<string, unknown>;
  } else {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    raw = { query: q.get('query') ?? undefined, operationName: q.get('operationName') ?? undefined, documentId: q.get('documentId') ?? undefined };
    for (const k of ['variables', 'extensions']) if (q.get(k)) raw[k] = parseJson(q.get(k)!, k);
  }
  if (!raw || typeof raw !== 'object') throw new Refused(400, 'BAD_REQUEST', 'query is required', 'query');
  // a registered operation's id (extensions.persistedQuery.sha256Hash, documentId) stands for the query
  const ext = raw.extensions as Record<string, unknown> | undefined;
  const byId = (ext && typeof ext === 'object' && 'persistedQuery' in ext) || typeof raw.documentId === 'string';
  if (byId && (raw.query === undefined || raw.query === null)) raw.query = '';
  if (typeof raw.query !== 'string' || (!raw.query && !byId)) throw new Refused(400, 'BAD_REQUEST', 'query is required', 'query');
  for (const k of ['variables', 'extensions'] as const)
    if (raw[k] != null && (typeof raw[k] !== 'object' || Array.isArray(raw[k]))) throw new Refused(400, 'BAD_REQUEST', `${k} must be an object`, k);
  if (raw.operationName != null && typeof raw.operationName !== 'string') throw new Refused(400, 'BAD_REQUEST', 'operationName must be a string', 'operationName');
  return raw as unknown as OperationRequest;
}

function parseJson(text: string, parameter: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refused(400, 'INVALID_JSON', `${parameter} is not valid JSON`, parameter);
  }
}

/** A refusal before the stream opens, in the gateway's error shape (after it opened, the response just ends). */
function refuse(res: ServerResponse, r: Refused, headers: Record<string, string>): void {
  const errors = (r as { errors?: unknown[] }).errors ?? [{ message: r.message, extensions: { code: r.code as ErrorCode, status: r.status, ...(r.parameter ? { parameter: r.parameter } : {}) } }];
  if (res.headersSent) return void res.end();
  sendJson(res, r.status, { errors }, headers);
}
