// Generate the next migration of one subgraph from the difference between its entities and
// the schema its existing migrations build. Usage:
//   npm run migration:create -- <subgraph> [name]        (uses DATABASE_URL's server)
import { writeFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { createOrm, databaseUrl, migrate } from '../lib/db.js';
import { SUBGRAPHS } from './subgraphs.js';

const [name, label = 'change'] = process.argv.slice(2);
const def = SUBGRAPHS[name as keyof typeof SUBGRAPHS];
if (!def) {
  console.error(`usage: migration-create <${Object.keys(SUBGRAPHS).join('|')}> [name]`);
  process.exit(2);
}
const cfg = loadConfig();
const base = databaseUrl(cfg);
const tmpDb = `migration_gen_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${tmpDb}`);
const url = base.replace(/\/[^/?]*(\?.*)?$/, `/${tmpDb}`);
try {
  const orm = await createOrm({ url, schema: def.dbSchema, entities: def.entities, migrations: def.migrations, filters: def.filters });
  await migrate(orm, def.dbSchema);
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, schema: def.dbSchema });
  await orm.close();
  if (!sql.trim()) {
    console.log('entities and migrations agree: nothing to generate');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const cls = `Migration${stamp}_${label.replace(/\W/g, '_')}`;
    const dir = resolve('subgraphs', def.name, 'migrations');
    const statements = sql.split(/;\n/).map((s) => s.trim()).filter(Boolean);
    writeFileSync(
      resolve(dir, `${cls}.ts`),
      `import { Migration } from '@mikro-orm/migrations';\n\nexport class ${cls} extends Migration {\n  override async up(): Promise<void> {\n${statements
        .map((s) => `    this.addSql(${JSON.stringify(s.replace(/;$/, ''))});`)
        .join('\n')}\n  }\n}\n`,
    );
    const indexPath = resolve(dir, 'index.ts');
    const index = readFileSync(indexPath, 'utf8');
    const imports = [...index.matchAll(/^import .*$/gm)].map((m) => m[0]);
    const names = [...index.matchAll(/\{ name: '([^']+)'/g)].map((m) => m[1]);
    imports.push(`import { ${cls} } from './${cls}.js';`);
    names.push(cls);
    writeFileSync(
      indexPath,
      `// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).\n${imports.join('\n')}\n\nexport const migrations = [\n${names
        .map((n) => `  { name: '${n}', class: ${n} },`)
        .join('\n')}\n];\n`,
    );
    console.log(`wrote subgraphs/${def.name}/migrations/${cls}.ts`);
  }
} finally {
  await admin.query(`drop database if exists ${tmpDb} with (force)`);
  await admin.end();
}
