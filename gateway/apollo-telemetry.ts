import type { Config } from '../lib/config.js';

/**
 * @apollo/gateway sends usage telemetry to Apollo (and probes cloud metadata addresses) unless
 * APOLLO_TELEMETRY_DISABLED is set when it is constructed: off unless the operator opts in with
 * APOLLO_TELEMETRY=1 (a multi-tenant platform does not phone home unasked).
 */
export function apolloTelemetryEnv(cfg: Pick<Config, 'apolloTelemetry'>, env: NodeJS.ProcessEnv = process.env): void {
  if (!cfg.apolloTelemetry) env.APOLLO_TELEMETRY_DISABLED = '1';
}
