// POST/GET /graphql, over HTTP or in process (the REST bridge's calls): authentication, CORS
// headers, rate-limit headers, the request hooks (hooks.ts), then Apollo.
import type { ApolloServer } from '@apollo/server';
import { statusOf } from '../lib/errors.js';
import { answerGraphQL, graphqlOperationLabel, jsonAnswer, MiB, type GraphQLAnswer, type GraphQLCall, type GraphQLEdgePolicy } from '../lib/http.js';
import { corsHeaders, requestOrigin, responseOriginAllowed } from '../lib/cors.js';
import type { Config } from '../lib/config.js';
import type { AuthResult } from './auth/authenticate.js';
import type { EdgeAuth } from './auth/edge-auth.js';
import type { GatewayContext } from './data-source.js';
import type { RequestHooks } from './hooks.js';
import { SUBGRAPH_RETRY_AFTER_MS } from './unavailable.js';

/** `clientAddress`: the client's address as an in-process caller resolved it (else from the request) */
export type AnswerGraphQL = (call: GraphQLCall, remoteAddress: string | undefined, clientAddress?: string) => Promise<GraphQLAnswer>;

export function createGraphQLAnswer(deps: { cfg: Config; apollo: ApolloServer<GatewayContext>; auth: EdgeAuth; edgePolicy: GraphQLEdgePolicy; hooks: RequestHooks }): AnswerGraphQL {
  const { cfg, apollo, auth: edge, edgePolicy, hooks } = deps;
  // the around hooks from the innermost out, once (not copied and reversed per request)
  const arounds = [...hooks.aroundExecute].reverse();
  return async (call, remoteAddress, clientAddress) => {
    for (const arrived of hooks.arrived) arrived(call);
    const route = graphqlOperationLabel(undefined, call.url);
    const origin = requestOrigin(call);
    const auth = await edge.authenticator.authenticate(call.headers, clientAddress ?? edge.clientAddress(remoteAddress, call.headers));
    const headers = origin ? corsHeaders(origin, responseOriginAllowed(call, origin, auth.ok ? { ok: true, kind: auth.tenant.kind } : auth, cfg.corsOrigins)) : {};
    if (auth.rateLimit) {
      headers['x-ratelimit-limit'] = String(auth.rateLimit.limit);
      headers['x-ratelimit-remaining'] = String(auth.rateLimit.remaining);
      headers['x-ratelimit-reset'] = String(Math.ceil(auth.rateLimit.resetMs / 1000));
    }
    const a = auth.ok ? await execute(call, auth.tenant) : refusal(auth, route);
    // in place: an answer given as a value writes its body only when read (lib/http.ts)
    a.headers = { ...headers, ...a.headers };
    return a;
  };

  async function execute(call: GraphQLCall, tenant: GatewayContext['tenant']): Promise<GraphQLAnswer> {
    let a: GraphQLAnswer | undefined;
    for (const before of hooks.beforeExecute) {
      // a hook that decided at once is not waited for (a promise a hook a request)
      let outcome = before(call, tenant);
      if (outcome instanceof Promise) outcome = await outcome;
      if (outcome && 'answer' in outcome) {
        a = outcome.answer;
        break;
      }
      if (outcome) call = outcome.call;
    }
    if (!a) {
      // the around hooks nest: the first given is the outermost; each may add context for Apollo's plugins
      const sent = call;
      let run = (context: Record<string, unknown>) => answerGraphQL(apollo, sent, async () => ({ ...context, tenant }), MiB, edgePolicy);
      for (const around of arounds) {
        const inner = run;
        run = (context) => around(sent, tenant, (more) => inner({ ...context, ...more }));
      }
      a = await run({});
    }
    for (const after of hooks.afterExecute) {
      const done = after(call, tenant, a);
      if (done) await done;
    }
    return a;
  }
}

/**
 * The answer to a request refused before it runs. A refusal for want of a service (the key or
 * operator lookup while the platform subgraph is unreachable, a replica restarting) says when to
 * retry, like a subgraph found unreachable (gateway/unavailable.ts): Retry-After and meta.retryAfterMs.
 */
export function refusal(auth: Extract<AuthResult, { ok: false }>, route: string): GraphQLAnswer {
  const status = statusOf(auth.code);
  const headers: Record<string, string> = {};
  if (auth.code === 'RATE_LIMITED' && auth.rateLimit) headers['retry-after'] = String(Math.max(1, Math.ceil(auth.rateLimit.resetMs / 1000)));
  const unavailable = auth.code === 'SERVICE_UNAVAILABLE';
  if (unavailable) headers['retry-after'] = String(SUBGRAPH_RETRY_AFTER_MS / 1000);
  const extensions = { code: auth.code, status, ...(auth.reason ? { reason: auth.reason } : {}), ...(unavailable ? { meta: { retryAfterMs: SUBGRAPH_RETRY_AFTER_MS } } : {}) };
  return jsonAnswer(status, { errors: [{ message: auth.message, extensions }] }, route, headers);
}
