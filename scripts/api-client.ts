// The public API as the seed and import commands use it: JSON:API over the REST bridge, GraphQL
// subscriptions over graphql-ws on the gateway. Nothing here reaches a subgraph or the database.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { bodyOf } from '../lib/http-client.js';

export interface ApiResult {
  status: number;
  body: any;
  headers: Headers;
}

export class ApiError extends Error {
  constructor(
    readonly what: string,
    readonly result: ApiResult,
  ) {
    super(`${what}: HTTP ${result.status} ${JSON.stringify(result.body).slice(0, 500)}`);
  }
}

export class RestApi {
  constructor(
    readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Same address, other credentials. */
  as(headers: Record<string, string>): RestApi {
    return new RestApi(this.base, headers);
  }

  async call(method: string, path: string, body?: unknown): Promise<ApiResult> {
    const r = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...this.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: bodyOf(await r.text()), headers: r.headers };
  }

  /** The call, which must answer one of `ok` (else ApiError naming `what`). */
  async expect(what: string, ok: number | number[], method: string, path: string, body?: unknown): Promise<any> {
    const r = await this.call(method, path, body);
    if (!(Array.isArray(ok) ? ok : [ok]).includes(r.status)) throw new ApiError(what, r);
    return r.body;
  }
}

export const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

/** A graphql-ws client of the gateway, authenticated with `headers` in connection_init. */
export function subscriptions(gatewayUrl: string, headers: Record<string, string>): Client {
  return createClient({ url: gatewayUrl.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: headers, lazy: false, retryAttempts: 5 });
}

/** Poll a search task until it is final; its resource. */
export async function waitForTask(api: RestApi, taskId: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = (await api.expect(`task ${taskId}`, 200, 'GET', `/search/v1/tasks/${taskId}`)).data;
    if (['succeeded', 'failed', 'canceled'].includes(task.attributes.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.attributes.status} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
