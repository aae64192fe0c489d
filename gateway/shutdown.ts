// The gateway's shutdown in two steps. drain(): stop taking work over HTTP and WebSocket and finish
// the requests in flight (in-process calls, the bridge of this process, are still answered); stop():
// drain, then refuse in-process calls too and stop the background work in the order given.
import type { Server } from 'node:http';
import { closeServer, jsonAnswer, type GraphQLAnswer } from '../lib/http.js';
import { remainingMs } from '../lib/lifecycle.js';

/** Read by every entry point when a request arrives, so a request already being read is still answered. */
export interface ShutdownState {
  /** set when the drain begins: new work over HTTP and WebSocket is refused with a clear answer */
  stopping: boolean;
  /** set once drained: in-process calls are refused too (Apollo is stopping) */
  closed: boolean;
}

export const SHUTTING_DOWN_MESSAGE = 'The gateway is shutting down; retry shortly';

/** The answer to a request that arrives once stopping began. */
export function stoppingAnswer(): GraphQLAnswer {
  return jsonAnswer(503, { errors: [{ message: SHUTTING_DOWN_MESSAGE, extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } }] }, 'graphql (stopping)', { 'retry-after': '1', connection: 'close' });
}

export interface Shutdown {
  drain(deadline: number): Promise<void>;
  stop(deadline: number): Promise<void>;
}

/**
 * `server` closes gracefully and `sockets` (the WebSocket server: clients are told it is going
 * away, 1001, and reconnect elsewhere) when draining; `steps` run one after the other on stop, each
 * awaited (their own failures handled by them).
 */
export function shutdownSequence(state: ShutdownState, server: Server, sockets: { dispose(): Promise<void> | void }, steps: (() => Promise<unknown> | unknown)[]): Shutdown {
  let drained: Promise<void> | undefined;
  const drain = (deadline: number) => {
    state.stopping = true;
    return (drained ??= Promise.all([closeServer(server, remainingMs(deadline)), sockets.dispose()]).then(() => undefined));
  };
  return {
    drain,
    async stop(deadline) {
      await drain(deadline);
      state.closed = true;
      for (const step of steps) await step();
    },
  };
}
