// What the streaming transports (graphql-ws in websocket.ts, graphql-sse in sse/) do alike with an
// operation: check it under the gateway's input limits before it runs, read its resume point, and
// run a query or mutation through Apollo (subscriptions run on the full schema, schema.ts).
import { getOperationAST, parse, print, validate, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { ApolloServer } from '@apollo/server';
import type { Config } from '../../lib/config.js';
import { DomainError, toGraphQLError } from '../../lib/errors.js';
import { isEventId } from '../../lib/event-stream.js';
import type { GatewayContext } from '../data-source.js';
import type { TenantContext } from '../../lib/tenant.js';
import type { RequestHooks } from '../hooks.js';
import type { EdgeAuth } from '../auth/edge-auth.js';
import type { ShutdownState } from '../shutdown.js';
import { limitError, measureOperation } from '../limits.js';
import { subscribeRequestErrors } from '../request-policy.js';

/** What a streaming transport is made from (graphql-ws: websocket.ts; graphql-sse: sse/). */
export interface StreamingTransportDeps {
  cfg: Config;
  auth: EdgeAuth;
  apollo: ApolloServer<GatewayContext>;
  /** the full schema (Subscription root included), loaded before the server listens */
  schema: () => GraphQLSchema | undefined;
  state: ShutdownState;
  limits: { maxTokens: number; maxAliases: number };
  /** the features' hooks: `beforeSocketOperation` on each operation (registered operations), `written` told of each mutation executed here */
  hooks: Pick<RequestHooks, 'written' | 'beforeSocketOperation'>;
}

export interface OperationRequest {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  extensions?: Record<string, unknown> | null;
}

export interface OperationLimits {
  maxTokens: number;
  maxAliases: number;
  maxDepth: number;
  maxCost: number;
}

/**
 * The features' hooks on a streamed operation (registered operations: a registered document put in
 * for an id, or the refusal of a document or unknown id), before it is checked: the request to go on
 * with, or the error to answer.
 */
export async function operationThroughHooks(hooks: Pick<RequestHooks, 'beforeSocketOperation'>, req: OperationRequest, tenant: TenantContext): Promise<{ req: OperationRequest } | { refused: GraphQLError }> {
  let out = req;
  for (const hook of hooks.beforeSocketOperation) {
    const outcome = await hook(out, tenant);
    if (outcome && 'refused' in outcome) return { refused: outcome.refused };
    if (outcome) out = { ...out, query: outcome.query };
  }
  return { req: out };
}

/** The parsed document, or the errors refusing it (parse, validation, request policy, depth/cost/alias limits). */
export function checkOperation(schema: GraphQLSchema, req: OperationRequest, limits: OperationLimits): { doc: DocumentNode } | { errors: GraphQLError[] } {
  let doc: DocumentNode;
  try {
    doc = parse(req.query, { maxTokens: limits.maxTokens });
  } catch (e) {
    return { errors: [new GraphQLError((e as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 } })] };
  }
  const invalid = validate(schema, doc);
  if (invalid.length) return { errors: invalid.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } })) };
  const refused = subscribeRequestErrors(schema, doc, req.operationName, req.variables);
  if (refused.length) return { errors: [...refused] };
  const err = limitError(measureOperation(schema, doc, req.operationName, req.variables ?? {}), limits.maxDepth, limits.maxCost, limits.maxAliases);
  return err ? { errors: [err] } : { doc };
}

/**
 * Where a subscription resumes: `extensions.resumeFrom` of the request, else `fallback` (SSE's
 * Last-Event-ID header); an id that is not an event id is refused naming the parameter.
 */
export function resumePoint(req: OperationRequest, fallback?: { value: string | undefined; parameter: string }): { resumeFrom?: string } | { error: GraphQLError } {
  const given = req.extensions?.resumeFrom;
  const [value, parameter] = given !== undefined ? [given, 'extensions.resumeFrom'] : [fallback?.value, fallback?.parameter ?? 'extensions.resumeFrom'];
  if (value === undefined || value === '') return {};
  if (typeof value !== 'string' || !isEventId(value))
    return { error: toGraphQLError(new DomainError('BAD_USER_INPUT', `${parameter} must be an event id (<ms>-<seq>) received earlier`, { parameter })) };
  return { resumeFrom: value };
}

export function isMutation(doc: DocumentNode, operationName?: string | null): boolean {
  return getOperationAST(doc, operationName)?.operation === 'mutation';
}

/** A query or mutation through Apollo (the planner, the request hooks' plugins); `written` told of a mutation. */
export async function executeThroughApollo(
  apollo: ApolloServer<GatewayContext>,
  hooks: Pick<RequestHooks, 'written'>,
  op: { document: DocumentNode; variables?: Record<string, unknown> | null; operationName?: string | null },
  ctx: GatewayContext,
): Promise<ExecutionResult> {
  const r = await apollo.executeOperation(
    { query: print(op.document), variables: op.variables ?? undefined, operationName: op.operationName ?? undefined },
    { contextValue: ctx },
  );
  if (isMutation(op.document, op.operationName)) for (const written of hooks.written) await written(ctx.tenant);
  if (r.body.kind !== 'single') return { errors: [new GraphQLError('incremental delivery unsupported')] };
  // Apollo's result carries formatted (plain) errors; the transports serialise GraphQLErrors (toJSON)
  const { errors, ...rest } = r.body.singleResult;
  return { ...rest, ...(errors ? { errors: errors.map((e) => new GraphQLError(e.message, { path: e.path, extensions: e.extensions })) } : {}) } as ExecutionResult;
}
