// One request from a search node to another: JSON over HTTP on the internal network, the tenant
// context signed for the search audience and bound to the body exactly as the gateway signs its
// requests (lib/tenant.ts), with a bounded timeout. The answer is the protocol's
// `{ ok }` or `{ error }` (a domain error of the other node, to be passed on); anything else —
// a timeout, a refused connection, another status — rejects, and the caller tries the next node.
import { postJson } from '../../../lib/http-client.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../../lib/tenant.js';
import type { RingNode } from './ring.rules.js';

export interface WireError {
  code: string;
  message: string;
  parameter?: string;
  meta?: Record<string, unknown>;
}

export type NodeAnswer<T> = { ok: T } | { error: WireError };

/** The audience of requests between search nodes: the search subgraph's, as the gateway's are. */
export const NODE_AUDIENCE = 'search';

export async function callNode<T>(node: RingNode, path: string, tenant: TenantContext, payload: unknown, secret: string, timeoutMs: number): Promise<NodeAnswer<T>> {
  const body = JSON.stringify(payload);
  const res = await postJson(`${node.url}${path}`, { 'content-type': 'application/json', [TENANT_HEADER]: signTenantContext(tenant, secret, { audience: NODE_AUDIENCE, body }) }, body, timeoutMs);
  if (res.status !== 200) throw new Error(`search node ${node.id} answered HTTP ${res.status}`);
  const parsed = JSON.parse(res.text) as NodeAnswer<T>;
  if (!parsed || typeof parsed !== 'object' || !('ok' in parsed || 'error' in parsed)) throw new Error(`search node ${node.id} answered outside the protocol`);
  return parsed;
}
