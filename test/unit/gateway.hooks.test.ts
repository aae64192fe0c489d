// gateway/hooks.ts: features' request hooks collected in order, and their extra routes matched by
// exact path, by prefix (a path ending in '/') and by what the route accepts.
import type { IncomingMessage } from 'node:http';
import { extraRoutes, matchRoute, requestHooks, type GatewayExtension, type GatewayRoute } from '../../gateway/hooks.js';

const req = (accept = '*/*') => ({ headers: { accept } }) as unknown as IncomingMessage;
const noop = () => undefined;

test('hooks run in the order the extensions are listed; an extension without one adds nothing', () => {
  const a: GatewayExtension = { beforeExecute: noop, afterExecute: noop, plugins: [{ requestDidStart: noop }] };
  const b: GatewayExtension = { routes: [{ path: '/x', handle: noop }] };
  const c: GatewayExtension = { beforeExecute: () => undefined, beforeSocketOperation: () => undefined };
  const hooks = requestHooks([a, b, c]);
  expect(hooks.beforeExecute).toEqual([a.beforeExecute, c.beforeExecute]);
  expect(hooks.beforeSocketOperation).toEqual([c.beforeSocketOperation]);
  expect(hooks.afterExecute).toEqual([a.afterExecute]);
  expect(hooks.plugins).toHaveLength(1);
  expect(extraRoutes([a, b, c]).map((r) => r.path)).toEqual(['/x']);
});

test('routes: exact path, prefix, and accepts() deciding between routes on one path', () => {
  const stream: GatewayRoute = { path: '/graphql', accepts: (r) => r.headers.accept === 'text/event-stream', handle: noop };
  const prefix: GatewayRoute = { path: '/graphql/stream/', handle: noop };
  const exact: GatewayRoute = { path: '/status', handle: noop };
  const routes = [stream, prefix, exact];
  expect(matchRoute(routes, req('text/event-stream'), '/graphql')).toBe(stream);
  expect(matchRoute(routes, req(), '/graphql')).toBeUndefined();
  expect(matchRoute(routes, req(), '/graphql/stream/abc')).toBe(prefix);
  expect(matchRoute(routes, req(), '/status')).toBe(exact);
  expect(matchRoute(routes, req(), '/status/more')).toBeUndefined();
});
