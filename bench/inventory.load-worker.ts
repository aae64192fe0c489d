// The load of bench/inventory.bench.ts, in a worker thread so the clients' own HTTP and JSON work
// runs on the other core, not on the event loop of the stack it measures (as a separate load
// generator would). 50 clients reserve 1 unit each, a new order per request, until refused.
import { parentPort, workerData } from 'node:worker_threads';
import { requestJson } from '../lib/http-client.js';
import { signTenantContext, type TenantContext } from '../lib/tenant.js';

export interface LoadJob {
  via: 'subgraph' | 'rest';
  productId: string;
  clients: number;
  catalogUrl: string;
  restUrl: string;
  internalSecret: string;
  tenant: TenantContext;
  appId: string;
  keys: string[];
  orderPrefix: string;
}

export interface LoadResult {
  ok: number;
  refused: number;
  samples: number[];
  wall: number;
}

const job = workerData as LoadJob;
const mutation = 'mutation R($p: ID!, $i: ReserveInventoryInput!) { reserveInventory(productId: $p, input: $i) { id } }';
let order = 0;

async function viaSubgraph(): Promise<boolean> {
  const body = JSON.stringify({ query: mutation, variables: { p: job.productId, i: { quantity: 1, orderId: `${job.orderPrefix}${++order}` } } });
  const r = await requestJson('POST', job.catalogUrl, { 'content-type': 'application/json', 'x-tenant-context': signTenantContext(job.tenant, job.internalSecret, { audience: 'catalog', body }) }, body);
  const j = JSON.parse(r.text);
  if (j.data?.reserveInventory) return true;
  const c = j.errors?.[0]?.extensions?.code;
  if (c === 'INVENTORY_RESERVED' || c === 'INSUFFICIENT_INVENTORY') return false;
  throw new Error(`reserve: ${r.text.slice(0, 300)}`);
}

async function viaRest(client: number): Promise<boolean> {
  const headers = { 'x-app-id': job.appId, 'x-api-key': job.keys[client % job.keys.length], 'content-type': 'application/json' };
  const r = await requestJson('POST', `${job.restUrl}/v1/products/${job.productId}/inventory/reserve`, headers, JSON.stringify({ data: { quantity: 1, order_id: `${job.orderPrefix}${++order}` } }));
  if (r.status === 201) return true;
  if (r.status === 409) return false;
  throw new Error(`reserve (REST): ${r.status} ${r.text.slice(0, 300)}`);
}

let ok = 0;
let refused = 0;
const samples: number[] = [];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: job.clients }, async (_, c) => {
    for (;;) {
      const t = performance.now();
      const held = job.via === 'subgraph' ? await viaSubgraph() : await viaRest(c);
      samples.push(performance.now() - t);
      if (held) ok++;
      else {
        refused++;
        return;
      }
    }
  }),
);
parentPort!.postMessage({ ok, refused, samples, wall: performance.now() - t0 } satisfies LoadResult);
