// Health of the gateway (GET /health, /health/ready, /health/detailed, no authentication needed).
// Readiness answers for the process itself, as an orchestrator needs it (docs/deploy.md): never the
// subgraphs, whose health is /health/detailed's. Details there (latencies, versions, error text) only
// for a super-admin token (docs/security.md); everyone else sees up or down per component.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../lib/config.js';
import type { Infra } from '../lib/infra.js';
import type { Logger } from '../lib/logger.js';
import { sendJson } from '../lib/http.js';
import { VERSION } from '../lib/version.js';
import { SUPER_ADMIN_SCOPE } from '../lib/tenant.js';
import { DRAINING, isDraining } from '../lib/lifecycle.js';
import { countersComponent } from '../lib/redis-fallback.js';
import type { Authenticator } from './auth/authenticate.js';
import type { ShutdownState } from './shutdown.js';

/** Answers the health paths; false for any other path. */
export type HealthRoute = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;

export function createHealthRoute(deps: { cfg: Config; infra: Infra; authenticator: Authenticator; state: ShutdownState; log: Logger }): HealthRoute {
  const { cfg, infra, authenticator, state, log } = deps;
  return (req, res, path) => {
    if (path === '/health') {
      sendJson(res, 200, { status: 'ok', service: 'gateway', version: VERSION, timestamp: new Date().toISOString() });
      return true;
    }
    if (path === '/health/ready') {
      const draining = state.stopping || isDraining();
      const own = redisComponents(infra);
      const head = { service: 'gateway', version: VERSION, timestamp: new Date().toISOString(), components: own.components };
      if (draining) sendJson(res, 503, { ...DRAINING, ...head });
      else sendJson(res, 200, { status: own.degraded ? 'degraded' : 'ok', ...head });
      return true;
    }
    if (path === '/health/detailed') {
      void (async () => {
        const auth = await authenticator.authenticate(req.headers, undefined);
        const detailed = !!auth?.ok && auth.tenant.kind === 'user' && auth.tenant.scopes.includes(SUPER_ADMIN_SCOPE);
        const r = await dependencies(cfg, infra);
        const components = detailed ? r.components : publicComponents(r.components);
        sendJson(res, r.ok ? 200 : 503, { status: r.ok && !r.degraded ? 'ok' : 'degraded', service: 'gateway', version: VERSION, timestamp: new Date().toISOString(), components });
      })().catch((e) => {
        log.error('health check failed', { err: e });
        if (!res.headersSent) sendJson(res, 503, { status: 'degraded', service: 'gateway' });
      });
      return true;
    }
    return false;
  };
}

/** Up or down per component and its latency, nothing else (no error text, versions or model details). */
function publicComponents(components: Record<string, unknown>): Record<string, { status: string; latency_ms?: number }> {
  const out: Record<string, { status: string; latency_ms?: number }> = {};
  for (const [name, c] of Object.entries(components) as [string, { status?: string; latency_ms?: unknown }][]) {
    out[name] = { status: c.status === 'ok' || c.status === 'degraded' ? c.status : 'unavailable', ...(typeof c.latency_ms === 'number' ? { latency_ms: c.latency_ms } : {}) };
  }
  return out;
}

/** This process's Redis connection and how its counters count now (in memory while Redis is unreachable). */
function redisComponents(infra: Infra): { degraded: boolean; components: Record<string, unknown> } {
  const components: Record<string, unknown> = {};
  const lost = !!infra.redis && !infra.redis.isReady;
  if (infra.redis) components.redis = lost ? { status: 'degraded', detail: 'unreachable: rate limits per process, events not delivered across processes' } : { status: 'ok' };
  const counting = countersComponent();
  if (counting) components.counters = counting;
  return { degraded: lost || counting?.status === 'degraded', components };
}

/**
 * The gateway's dependencies for /health/detailed: every subgraph must be ready (else 503); Redis
 * lost is a degradation (200, status "degraded"): requests are still served, counters count in
 * this process (listed under `counters`).
 */
async function dependencies(cfg: Config, infra: Infra): Promise<{ ok: boolean; degraded: boolean; components: Record<string, unknown> }> {
  const own = redisComponents(infra);
  const components: Record<string, unknown> = { ...own.components };
  const degraded = own.degraded;
  let ok = true;
  await Promise.all(
    Object.entries(cfg.subgraphUrls).map(async ([name, url]) => {
      const started = performance.now();
      try {
        const r = await fetch(url.replace(/\/graphql$/, '/health/ready'), { signal: AbortSignal.timeout(3000) });
        const body = (await r.json()) as Record<string, unknown>;
        components[name] = { status: r.ok ? 'ok' : 'unavailable', latency_ms: Math.round(performance.now() - started), ...body };
        if (!r.ok) ok = false;
      } catch (e) {
        ok = false;
        components[name] = { status: 'unavailable', error: (e as Error).message };
      }
    }),
  );
  return { ok, degraded, components };
}
