// @apollo/gateway phones home (usage telemetry, cloud metadata probes) unless APOLLO_TELEMETRY_DISABLED
// is set when it is constructed: the gateway turns it off unless APOLLO_TELEMETRY=1 (docs/deploy.md).
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { SUPERGRAPH_PATH } from '../../gateway/gateway.js';
import { apolloTelemetryEnv } from '../../gateway/apollo-telemetry.js';
import { loadConfig } from '../../lib/config.js';

const supergraphSdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
/** the exporter @apollo/gateway registers for disposal when its telemetry is on */
const exporters = (g: ApolloGateway) => (g as unknown as { toDispose: unknown[] }).toDispose.length;

test('by default no data-collection exporter is created', () => {
  const env: NodeJS.ProcessEnv = {};
  apolloTelemetryEnv(loadConfig({}), env);
  expect(env.APOLLO_TELEMETRY_DISABLED).toBe('1');
  const saved = process.env.APOLLO_TELEMETRY_DISABLED;
  try {
    process.env.APOLLO_TELEMETRY_DISABLED = env.APOLLO_TELEMETRY_DISABLED;
    // (without the variable it creates one, which starts probing cloud metadata addresses: not done here)
    expect(exporters(new ApolloGateway({ supergraphSdl }))).toBe(0);
  } finally {
    process.env.APOLLO_TELEMETRY_DISABLED = saved;
    if (saved === undefined) delete process.env.APOLLO_TELEMETRY_DISABLED;
  }
});

test('APOLLO_TELEMETRY=1 leaves the choice to @apollo/gateway', () => {
  const env: NodeJS.ProcessEnv = {};
  apolloTelemetryEnv(loadConfig({ APOLLO_TELEMETRY: '1' }), env);
  expect(env.APOLLO_TELEMETRY_DISABLED).toBeUndefined();
});
