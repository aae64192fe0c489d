// npm run start:db: only the embedded PostgreSQL, for running subgraphs as separate processes
// (npm run start:<name>) without a PostgreSQL server installed.
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { runMain } from '../lib/main.js';
import { startEmbeddedPostgres } from '../lib/db.js';

await runMain(async () => {
  const cfg = loadConfig();
  const db = await startEmbeddedPostgres(cfg, createLogger({ proc: 'db' }, cfg.logLevel));
  console.log(`embedded PostgreSQL ready at ${db.url}`);
  return () => db.stop();
});
