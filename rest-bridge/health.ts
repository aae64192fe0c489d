// Health of the REST base address (document 1: GET /health, /health/ready, /health/detailed, no
// authentication). The bridge has no database of its own: readiness is the gateway's readiness,
// which checks every subgraph's database.
import type { GatewayClient, HealthProbe } from './gateway-client.js';
import { VERSION } from '../lib/version.js';

export const SERVICE_NAME = 'rest-bridge';

export { VERSION };

export interface HealthAnswer {
  status: number;
  body: Record<string, unknown>;
}

const head = (status: string) => ({ status, service: SERVICE_NAME, version: VERSION, timestamp: new Date().toISOString() });

export function basicHealth(): HealthAnswer {
  return { status: 200, body: head('ok') };
}

/** 200 when the gateway and every subgraph database answer, 503 otherwise. */
export async function readiness(gateway: Pick<GatewayClient, 'health'>): Promise<HealthAnswer> {
  const probe = await gateway.health('/health/ready');
  const ok = probe.status === 200;
  return {
    status: ok ? 200 : 503,
    body: { ...head(!ok ? 'unavailable' : probe.body?.status === 'degraded' ? 'degraded' : 'ok'), components: { gateway: gatewayComponent(probe), ...subgraphComponents(probe.body) } },
  };
}

/** Every component with its latency: the bridge itself, the gateway, and each subgraph as the gateway saw it. */
export async function detailedHealth(gateway: Pick<GatewayClient, 'health'>, startedAt: number): Promise<HealthAnswer> {
  const probe = await gateway.health('/health/detailed');
  const subgraphs = subgraphComponents(probe.body);
  const components = {
    [SERVICE_NAME]: { status: 'ok', latency_ms: 0, version: VERSION, uptime_s: Math.round((Date.now() - startedAt) / 1000) },
    gateway: gatewayComponent(probe),
    ...subgraphs,
  };
  const ok = probe.status === 200 && Object.values(subgraphs).every((c) => c.status === 'ok');
  return { status: ok ? 200 : 503, body: { ...head(ok ? 'ok' : 'degraded'), components } };
}

function gatewayComponent(probe: HealthProbe) {
  const status = probe.status === 200 ? 'ok' : probe.status === 0 ? 'unavailable' : 'degraded';
  // no error text: /health/detailed answers without credentials (details: the gateway's, with a super-admin token)
  return { status, latency_ms: probe.latencyMs };
}

function subgraphComponents(body: Record<string, any> | undefined): Record<string, { status: string; [k: string]: unknown }> {
  const out: Record<string, { status: string; [k: string]: unknown }> = {};
  const components = body?.components;
  if (!components || typeof components !== 'object') return out;
  for (const [name, c] of Object.entries(components as Record<string, any>)) {
    out[name] = { ...(c && typeof c === 'object' ? c : {}), status: typeof c?.status === 'string' ? c.status : 'unknown' };
  }
  return out;
}
