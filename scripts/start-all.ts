// npm start: everything on one machine with nothing installed (see README).
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { runMain } from '../lib/process.js';
import { redactUrl } from '../lib/db.js';
import { startStack } from './stack.js';

await runMain(async () => {
  const started = performance.now();
  const cfg = loadConfig();
  const log = createLogger({ proc: 'start-all' }, cfg.logLevel === 'info' ? 'warn' : cfg.logLevel);
  if (cfg.jwtSecretIsDefault) console.warn('warning: JWT_SECRET is not set: using the development default (never in production)');
  const stack = await startStack(cfg, log);
  const lines = [
    `ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    `  REST bridge   http://${cfg.host}:${stack.rest.port}   (GET /health, /openapi.json)`,
    `  gateway       ${stack.gateway.url}   (GraphQL over HTTP and WebSocket)`,
    ...stack.subgraphs.map((s) => `  ${s.name.padEnd(13)} ${s.url}`),
    `  database      ${redactUrl(stack.dbUrl)}${cfg.databaseUrl ? '' : ` (embedded, data in ${cfg.dataDir}/pg)`}`,
    `  pub/sub       ${stack.infra.pubsub.kind === 'redis' ? 'redis' : 'in-process'}`,
  ];
  console.log(lines.join('\n'));
  return () => stack.stop();
});
