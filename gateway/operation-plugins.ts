// The gateway's own per-operation plugins (request policy, limits, image budget, introspection,
// request id, response cache, cost) given to Apollo as one plugin. Apollo runs every plugin's
// listener through each step of every request (a Promise.all, or a sequence of awaits, over the
// listeners, whether or not a listener has that step): ~12 promises a listener a request, before
// the hooks' own. Seven listeners were ~80 of a single-subgraph request's ~200 promises; as one
// they cost what one listener does, and a hook that has nothing to wait for returns at once.
//
// The order and the concurrency are Apollo's: `didResolveOperation` and `willSendResponse` start
// every plugin's hook in the plugins' order and wait for all of them (the first rejection fails the
// step, as Promise.all does, also when a hook throws before returning); `responseForOperation`
// asks each plugin in turn and stops at the first answer.
import type {
  ApolloServerPlugin,
  BaseContext,
  GraphQLRequestContext,
  GraphQLRequestContextDidResolveOperation,
  GraphQLRequestContextResponseForOperation,
  GraphQLRequestContextWillSendResponse,
  GraphQLRequestListener,
  GraphQLResponse,
} from '@apollo/server';

/** An operation's hooks, which may return at once when there is nothing to wait for (Apollo's own types want a promise). */
export interface OperationHooks<C extends BaseContext> {
  didResolveOperation?(rc: GraphQLRequestContextDidResolveOperation<C>): Promise<void> | void;
  /** an answer instead of executing, or null to go on */
  responseForOperation?(rc: GraphQLRequestContextResponseForOperation<C>): Promise<GraphQLResponse | null> | GraphQLResponse | null;
  willSendResponse?(rc: GraphQLRequestContextWillSendResponse<C>): Promise<void> | void;
}

/** A gateway plugin: its hooks for a request (or none for this one), given at once. */
export interface OperationPlugin<C extends BaseContext> {
  requestDidStart(rc: GraphQLRequestContext<C>): OperationHooks<C> | undefined;
}

/** One resolved promise each, shared: returned when no hook had anything to wait for (no promise made per request). */
const DONE: Promise<void> = Promise.resolve();
const NO_ANSWER: Promise<GraphQLResponse | null> = Promise.resolve(null);

/** `plugins` as one Apollo plugin, in their order. */
export function operationPlugins<C extends BaseContext>(plugins: readonly OperationPlugin<C>[]): ApolloServerPlugin<C> {
  return {
    requestDidStart(rc) {
      const hooks: OperationHooks<C>[] = [];
      for (const p of plugins) {
        const h = p.requestDidStart(rc);
        if (h) hooks.push(h);
      }
      return Promise.resolve(hooks.length ? listener(hooks) : undefined);
    },
  };
}

function listener<C extends BaseContext>(hooks: OperationHooks<C>[]): GraphQLRequestListener<C> {
  return {
    didResolveOperation: (rc) => all(hooks.map((h) => attempt(() => h.didResolveOperation?.(rc)))),
    responseForOperation: (rc) => first(hooks, 0, rc),
    willSendResponse: (rc) => all(hooks.map((h) => attempt(() => h.willSendResponse?.(rc)))),
  };
}

/** A hook's result; a throw as a rejection, so that the hooks after it still start (as Apollo starts each). */
function attempt(run: () => Promise<void> | void): Promise<void> | void {
  try {
    return run();
  } catch (e) {
    return Promise.reject(e);
  }
}

function all(results: (Promise<void> | void)[]): Promise<void> {
  const pending = results.filter((r): r is Promise<void> => r !== undefined);
  if (pending.length === 0) return DONE;
  return pending.length === 1 ? pending[0]! : Promise.all(pending).then(() => undefined);
}

/** The first answer of hooks[i..], asked in turn. */
function first<C extends BaseContext>(hooks: OperationHooks<C>[], i: number, rc: GraphQLRequestContextResponseForOperation<C>): Promise<GraphQLResponse | null> {
  for (; i < hooks.length; i++) {
    const r = hooks[i]!.responseForOperation?.(rc);
    if (r == null) continue;
    if (!(r instanceof Promise)) return Promise.resolve(r);
    const next = i + 1;
    return r.then((answer) => answer ?? first(hooks, next, rc));
  }
  return NO_ANSWER;
}
