// npm start: everything on one machine with nothing installed (see README).
import { ConfigError, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { runMain } from '../lib/process.js';
import { redactUrl } from '../lib/db.js';
import { nextSteps } from './start-banner.js';


await runMain(async () => {
  const started = performance.now();
  const cfg = loadConfig();
  const log = createLogger({ proc: 'start-all' }, cfg.logLevel === 'info' ? 'warn' : cfg.logLevel);
  if (cfg.jwtSecretIsDefault) console.warn('warning: JWT_SECRET is not set: using the development default (never in production)');
  // START_PROCESSES=split: one process per service (needs REDIS_URL); default: one process (docs/performance.md)
  const mode = process.env.START_PROCESSES || 'one';
  if (mode !== 'one' && mode !== 'split') throw new ConfigError('START_PROCESSES', `"${mode}" must be one or split`);
  // each mode imports only what it runs: split's parent holds no service code (bench:startup's RSS)
  if (mode === 'split') {
    const { startProcesses } = await import('./stack-processes.js');
    const procs = await startProcesses(cfg, log);
    console.log(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s, one process per service (pids ${procs.pids.join(', ')})`);
    console.log(nextSteps(cfg));
    return (deadline) => procs.stop(deadline);
  }
  const { startStack } = await import('./stack.js');
  const stack = await startStack(cfg, log);
  const lines = [
    `ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    `  REST bridge   http://${cfg.host}:${stack.rest.port}   (REST reference /docs, investor data room /data-room, /health, /openapi.json)`,
    `  gateway       ${stack.gateway.url}   (GraphQL over HTTP and WebSocket; GraphiQL in a browser)`,
    ...stack.subgraphs.map((s) => `  ${s.name.padEnd(13)} ${s.url}`),
    `  database      ${redactUrl(stack.dbUrl)}${cfg.databaseUrl ? '' : ` (embedded, data in ${cfg.dataDir}/pg)`}`,
    `  pub/sub       ${stack.infra.pubsub.kind === 'redis' ? 'redis' : 'in-process'}`,
  ];
  console.log(lines.join('\n'));
  console.log(nextSteps(cfg));
  return (deadline) => stack.stop(deadline);
});
