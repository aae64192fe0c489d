// npm run start:rest: the REST bridge alone, in front of the gateway at GATEWAY_URL (or GATEWAY_PORT).
import { loadConfig, requireSharedState } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { runMain } from '../lib/main.js';
import { startRestBridge } from './server.js';

await runMain(async () => {
  const cfg = loadConfig();
  requireSharedState(cfg);
  const log = createLogger({ proc: 'rest-bridge' }, cfg.logLevel);
  const bridge = await startRestBridge({ cfg, log });
  console.log(`REST bridge ready at ${bridge.url} (gateway ${cfg.gatewayUrl})`);
  return (deadline) => bridge.stop(deadline);
});
