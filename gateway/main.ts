// npm run start:gateway: the gateway alone (subgraph addresses from *_PORT / *_URL).
import { loadConfig, requireSharedState } from '../lib/config.js';
import { createInfra } from '../lib/infra.js';
import { createLogger } from '../lib/logger.js';
import { runMain } from '../lib/main.js';
import { startGateway } from './gateway.js';

await runMain(async () => {
  const cfg = loadConfig();
  requireSharedState(cfg);
  const log = createLogger({ proc: 'gateway' }, cfg.logLevel);
  if (cfg.jwtSecretIsDefault) log.warn('JWT_SECRET is not set: using the development default; never do this in production');
  const infra = await createInfra(cfg, log);
  const gw = await startGateway({ cfg, log, infra });
  console.log(`gateway ready at ${gw.url}`);
  return async (deadline) => {
    await gw.stop(deadline);
    await infra.close();
  };
});
