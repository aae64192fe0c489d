// What every benchmark needs around its measurement: a scratch database on DATABASE_URL's server
// (created for the run, dropped after), and the stack's port block away from `npm start` and tests.
import pg from 'pg';

export interface ScratchDatabase {
  /** the scratch database's URL, or undefined without DATABASE_URL (the stack then uses the embedded server) */
  url?: string;
  name?: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(label: string, serverUrl = process.env.DATABASE_URL): Promise<ScratchDatabase> {
  if (!serverUrl) return { drop: async () => undefined };
  const name = `bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    name,
    url: serverUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Ports of a whole stack from `base` (gateway) up, as the test harness lays them out. */
export function stackPorts(base: number): Record<string, string> {
  return {
    GATEWAY_PORT: String(base),
    PLATFORM_PORT: String(base + 1),
    AI_PORT: String(base + 2),
    CATALOG_PORT: String(base + 3),
    SEARCH_PORT: String(base + 4),
    REST_PORT: String(base + 80),
    EMBEDDED_PG_PORT: String(base + 329),
  };
}
