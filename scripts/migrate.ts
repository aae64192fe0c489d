// npm run migrate (ROLE=migrate): every subgraph's checked-in migrations applied once, each under its
// advisory lock (lib/db.ts migrate), then exit. Deployments run it once per release (the migration
// Job of deploy/kubernetes) before the replicas roll; replicas do not migrate (MIGRATE_ON_START).
import { loadConfig } from '../lib/config.js';
import { checkDatabase, createOrm, databaseUrl, migrate, redactUrl } from '../lib/db.js';
import { ConfigError } from '../lib/config.js';
import { SUBGRAPHS } from './subgraphs.js';

try {
  const cfg = loadConfig();
  const url = databaseUrl(cfg);
  await checkDatabase(url, cfg);
  if (cfg.databaseDirectUrl) await checkDatabase(cfg.databaseDirectUrl, { ...cfg, databaseUrl: cfg.databaseDirectUrl });
  for (const def of Object.values(SUBGRAPHS)) {
    const orm = await createOrm({ url, schema: def!.dbSchema, entities: def!.entities, migrations: def!.migrations, filters: def!.filters, poolMax: 2 });
    try {
      const applied = await migrate(orm, def!.dbSchema, cfg.databaseDirectUrl);
      console.log(`${def!.name}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
    } finally {
      await orm.close();
    }
  }
  console.log(`migrations done on ${redactUrl(url)}`);
  process.exit(0);
} catch (e) {
  process.stderr.write(e instanceof ConfigError ? `error: ${e.message}\n` : `error: migration failed: ${(e as Error).message}\n`);
  process.exit(1);
}
