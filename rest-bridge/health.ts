// Health of the REST base address (document 1: GET /health, /health/ready, /health/detailed, no
// authentication). Readiness answers for the bridge process itself, as an orchestrator needs it
// (docs/deploy.md): a balancer must not pull every bridge when one subgraph is down. The bridge has
// no database of its own; the gateway's and every subgraph database's health is /health/detailed's.
import type { GatewayClient, HealthProbe } from './gateway-client.js';
import { VERSION } from '../lib/version.js';
import { DRAINING, isDraining } from '../lib/lifecycle.js';
import { countersComponent } from '../lib/redis-fallback.js';

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

/** 200 while this process serves (its counters' Redis lost: "degraded", still 200); 503 once it drains. */
export function readiness(): HealthAnswer {
  const counting = countersComponent();
  const components = counting ? { counters: counting } : {};
  if (isDraining()) return { status: 503, body: { ...head(DRAINING.status), detail: DRAINING.detail, components } };
  return { status: 200, body: { ...head(counting?.status === 'degraded' ? 'degraded' : 'ok'), components } };
}

/** Every component with its latency: the bridge itself, the gateway, and each subgraph as the gateway saw it. */
export async function detailedHealth(gateway: Pick<GatewayClient, 'health'>, startedAt: number): Promise<HealthAnswer> {
  const probe = await gateway.health('/health/detailed');
  const subgraphs = subgraphComponents(probe.body);
  const counting = countersComponent();
  const components = {
    [SERVICE_NAME]: { status: 'ok', latency_ms: 0, version: VERSION, uptime_s: Math.round((Date.now() - startedAt) / 1000), ...(counting ? { counters: counting.counters } : {}) },
    gateway: gatewayComponent(probe),
    ...subgraphs,
  };
  const ok = probe.status === 200 && Object.values(subgraphs).every((c) => c.status === 'ok');
  return { status: ok ? 200 : 503, body: { ...head(ok && counting?.status !== 'degraded' ? 'ok' : 'degraded'), components } };
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
