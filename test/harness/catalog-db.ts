// A scratch database migrated like the catalog subgraph's, with an ORM and a plain pg client, for
// integration tests of catalog statements that must run with no subgraph worker touching the tables.
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm, migrate } from '../../lib/db.js';
import { catalog } from '../../subgraphs/catalog/index.js';
import { scratchDatabase } from './scratch-db.js';

export interface CatalogScratch {
  url: string;
  orm: MikroORM;
  sql: pg.Client;
  /** closes both and drops the database */
  close(): Promise<void>;
}

export async function catalogScratch(prefix: string): Promise<CatalogScratch> {
  const db = scratchDatabase(prefix);
  await db.create();
  const url = db.url();
  const orm = await createOrm({ url, schema: catalog.dbSchema, entities: catalog.entities, migrations: catalog.migrations, filters: catalog.filters });
  await migrate(orm, catalog.dbSchema);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  return {
    url,
    orm,
    sql,
    async close() {
      await sql.end();
      await orm.close();
      await db.drop();
    },
  };
}
