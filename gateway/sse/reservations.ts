// graphql-sse's single connection mode: a client reserves a token (PUT), opens one event stream
// with it (GET), then starts (POST) and stops (DELETE) operations that all answer on that stream.
// A token belongs to the caller that reserved it: presented by anyone else it is unknown (404).
// A reservation whose stream is not opened within RESERVATION_TTL_MS is dropped; closing the stream
// stops its operations and drops the token.
import { randomUUID } from 'node:crypto';
import type { SseWriter } from './sse-writer.js';

export const RESERVATION_TTL_MS = 30_000;
/** operations running at once on one stream */
export const MAX_OPERATIONS_PER_STREAM = 100;

export interface Reservation {
  token: string;
  /** the caller (lib: callerKey) the token was reserved by */
  caller: string;
  writer?: SseWriter;
  /** running operations by the client's operation id: each one's stop */
  operations: Map<string, () => void>;
  timer?: NodeJS.Timeout;
}

export class Reservations {
  private byToken = new Map<string, Reservation>();

  reserve(caller: string): Reservation {
    const r: Reservation = { token: randomUUID(), caller, operations: new Map() };
    r.timer = setTimeout(() => !r.writer && this.byToken.delete(r.token), RESERVATION_TTL_MS);
    r.timer.unref();
    this.byToken.set(r.token, r);
    return r;
  }

  /** The caller's reservation of `token`; undefined for an unknown token or another caller's. */
  find(token: string, caller: string): Reservation | undefined {
    const r = this.byToken.get(token);
    return r && r.caller === caller ? r : undefined;
  }

  /** The stream closed: stop its operations, forget the token. */
  release(r: Reservation): void {
    clearTimeout(r.timer);
    for (const stop of r.operations.values()) stop();
    r.operations.clear();
    this.byToken.delete(r.token);
  }

  get size(): number {
    return this.byToken.size;
  }
}
