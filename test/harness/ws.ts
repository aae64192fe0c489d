// graphql-ws client helpers for subscription tests: a subscription as an async queue of events.
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { EventQueue } from './event-queue.js';

export interface Subscription<T = any> {
  next(timeoutMs?: number): Promise<T>;
  /** resolves true if no event arrives within ms */
  quiet(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export function wsClient(url: string, connectionParams: Record<string, string>): Client {
  return createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

export async function subscribe<T = any>(client: Client, query: string): Promise<Subscription<T>> {
  let failure: unknown;
  const events = new EventQueue<T>('subscription event', () => failure);
  let ack!: () => void;
  const acked = new Promise<void>((r) => (ack = r));
  const off = client.on('connected', () => ack());
  const dispose = client.subscribe<T>(
    { query },
    {
      next: (v) => {
        events.push((v.errors ? { errors: v.errors } : v.data) as T);
      },
      error: (e) => {
        failure = e;
        ack();
      },
      complete: () => undefined,
    },
  );
  await acked;
  off();
  if (failure) throw failure instanceof Error ? failure : new Error(JSON.stringify(failure));
  // The subscribe message is sent right after the ack; give the server a moment to register the topic.
  await new Promise((r) => setTimeout(r, 150));
  return {
    next: (timeoutMs = 5000) => events.next(timeoutMs),
    quiet: (ms) => events.quiet(ms),
    async close() {
      dispose();
      await client.dispose();
    },
  };
}

/** Resolves with the close code when the server refuses the connection. */
export function connectionRefusal(url: string, connectionParams: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const client = createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
      on: { closed: (e) => resolve((e as { code: number }).code) },
    });
    client.on('connected', () => resolve(1000));
  });
}
