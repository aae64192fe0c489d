// Where features plug into the gateway without editing its request path: request hooks around the
// execution of every GraphQL request, and extra HTTP routes. gateway/gateway.ts collects them and
// hands them to the pieces that run them (graphql-answer.ts, router.ts, core.ts's plugins).
//
// Two levels of request hook:
// - `arrived`: per HTTP or in-process request, before authentication (start a read early; no answer).
// - `beforeExecute` / `afterExecute`: per HTTP or in-process request, after authentication, with the
//   caller's tenant and the request as sent (body not yet parsed by Apollo): a response cache answers
//   a hit here, a policy refuses here, a registry rewrites the request; `afterExecute` sees the
//   answer before it is sent (headers, keep).
// - `beforeSocketOperation`: per streamed operation (a graphql-ws subscribe message, a graphql-sse
//   request: subscriptions, queries and mutations), after the caller authenticated, before the
//   document is parsed (subscriptions/operation.ts): a registry puts its document in or refuses here.
// - `plugins`: per operation, over HTTP, in process and for queries and mutations over WebSocket,
//   Apollo's hooks `didResolveOperation` (document parsed and validated, before execution),
//   `responseForOperation` (answer instead of executing), `willSendResponse` (after); given to
//   Apollo as one plugin (operation-plugins.ts), and a hook may return at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { GraphQLAnswer, GraphQLCall } from '../lib/http.js';
import type { TenantContext } from '../lib/tenant.js';
import type { GatewayContext } from './data-source.js';
import type { OperationPlugin } from './operation-plugins.js';

/** Wraps the execution (after the beforeExecute hooks): may answer itself, or call `run` with context to add to the request's (a response cache fills here). */
export type AroundExecute = (call: GraphQLCall, tenant: TenantContext, run: (context: Record<string, unknown>) => Promise<GraphQLAnswer>) => Promise<GraphQLAnswer>;
/**
 * Told of every HTTP or in-process request as it arrives, before authentication: a chance to start a
 * read the request will need in the same round trip as authentication's own (the response cache's
 * write epoch, read beside the key's rate-limit counters).
 */
export type Arrived = (call: GraphQLCall) => void;
/** Told once a mutation sent over WebSocket has been executed (HTTP and in-process mutations go through aroundExecute). */
export type AfterWrite = (tenant: TenantContext) => Promise<void>;
/**
 * What a `BeforeExecute` decides: `answer`, sent instead of executing (later hooks and Apollo
 * skipped); `call`, the request to go on with in place of the one received (e.g. a registered
 * operation's document put in); nothing, go on unchanged.
 */
export type BeforeOutcome = { answer: GraphQLAnswer } | { call: GraphQLCall } | undefined;
/** Runs once the caller is authenticated, before Apollo. */
export type BeforeExecute = (call: GraphQLCall, tenant: TenantContext) => Promise<BeforeOutcome> | BeforeOutcome;
/** Runs on the answer before it is sent (also on one a `BeforeExecute` gave); may change its headers in place. */
export type AfterExecute = (call: GraphQLCall, tenant: TenantContext, answer: GraphQLAnswer) => Promise<void> | void;

/** A graphql-ws subscribe message's payload, as the client sent it (`query` may be empty when an id is sent instead). */
export interface SocketOperation {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  extensions?: Record<string, unknown> | null;
  /** a trusted document's id, beside `query` as over HTTP (graphql-ws passes members it does not know) */
  documentId?: unknown;
}
/** `query`: run this document instead of the one sent; `refused`: answer this error; nothing: go on unchanged. */
export type SocketOutcome = { query: string } | { refused: GraphQLError } | undefined;
/** Runs per streamed operation (graphql-ws, graphql-sse), with the caller's tenant, before the document is parsed. */
export type BeforeSocketOperation = (operation: SocketOperation, tenant: TenantContext) => Promise<SocketOutcome> | SocketOutcome;

export interface RequestHooks {
  arrived: Arrived[];
  beforeExecute: BeforeExecute[];
  beforeSocketOperation: BeforeSocketOperation[];
  afterExecute: AfterExecute[];
  aroundExecute: AroundExecute[];
  written: AfterWrite[];
  plugins: OperationPlugin<GatewayContext>[];
}

/** An HTTP route beside /graphql, tried (in order) before the gateway's own routes. */
export interface GatewayRoute {
  /** an exact path, or a prefix when it ends with '/' */
  path: string;
  /** claims a request on that path (default: every method and header), e.g. `Accept: text/event-stream` on /graphql */
  accepts?(req: IncomingMessage): boolean;
  /** answers the request; a rejection is logged and answered 500 in the gateway's error shape if nothing was sent */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void;
}

/** One feature's contribution: any of its hooks and routes. */
export interface GatewayExtension {
  arrived?: Arrived;
  beforeExecute?: BeforeExecute;
  beforeSocketOperation?: BeforeSocketOperation;
  afterExecute?: AfterExecute;
  aroundExecute?: AroundExecute;
  written?: AfterWrite;
  plugins?: OperationPlugin<GatewayContext>[];
  routes?: GatewayRoute[];
}

/** The extensions' hooks in the order given: the first extension's beforeExecute and afterExecute run first. */
export function requestHooks(extensions: readonly GatewayExtension[]): RequestHooks {
  return {
    arrived: extensions.flatMap((e) => (e.arrived ? [e.arrived] : [])),
    beforeExecute: extensions.flatMap((e) => (e.beforeExecute ? [e.beforeExecute] : [])),
    beforeSocketOperation: extensions.flatMap((e) => (e.beforeSocketOperation ? [e.beforeSocketOperation] : [])),
    afterExecute: extensions.flatMap((e) => (e.afterExecute ? [e.afterExecute] : [])),
    aroundExecute: extensions.flatMap((e) => (e.aroundExecute ? [e.aroundExecute] : [])),
    written: extensions.flatMap((e) => (e.written ? [e.written] : [])),
    plugins: extensions.flatMap((e) => e.plugins ?? []),
  };
}

export function extraRoutes(extensions: readonly GatewayExtension[]): GatewayRoute[] {
  return extensions.flatMap((e) => e.routes ?? []);
}

/** The first route claiming the request, if any. */
export function matchRoute(routes: readonly GatewayRoute[], req: IncomingMessage, path: string): GatewayRoute | undefined {
  return routes.find((r) => (r.path.endsWith('/') ? path.startsWith(r.path) : path === r.path) && (!r.accepts || r.accepts(req)));
}
