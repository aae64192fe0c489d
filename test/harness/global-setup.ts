// One stack per test run, booted exactly as `npm start` boots it (scripts/start-all.ts in a child
// process). With DATABASE_URL set, a fresh database is created on that server for the run and
// dropped afterwards; without it, the embedded PostgreSQL runs under .data/test. REDIS_URL, when
// set, is passed through, so the run exercises Redis pub/sub and counters.
import { writeFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { ROOT, spawnScript, waitFor } from './spawn.js';
import { stackEnv, BASE } from './ports.js';

export const STATE_FILE = resolve(ROOT, '.data', 'test-stack.json');
export const JWT_SECRET = 'test-jwt-secret';

export default async function globalSetup(): Promise<void> {
  mkdirSync(resolve(ROOT, '.data'), { recursive: true });
  let databaseUrl: string | undefined;
  let dropDatabase: { admin: string; name: string } | undefined;
  if (process.env.DATABASE_URL) {
    const name = `sgtest_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    databaseUrl = process.env.DATABASE_URL.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);
    dropDatabase = { admin: process.env.DATABASE_URL, name };
  }
  const env = {
    ...stackEnv(),
    JWT_SECRET,
    INTERNAL_SECRET: 'test-internal-secret',
    DATABASE_URL: databaseUrl ?? '',
    EMBEDDED_PG_PORT: String(BASE + 329),
    DATA_DIR: resolve(ROOT, '.data', 'test'),
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_NETWORK_FETCH: '1',
    API_KEY_CACHE_TTL_MS: '1000',
  };
  const child = spawnScript('scripts/start-all.ts', env, 'stack');
  (globalThis as any).__STACK__ = { child, dropDatabase };
  const rest = `http://127.0.0.1:${env.REST_PORT}`;
  await waitFor(`${rest}/health/ready`, 120_000, child);
  writeFileSync(
    STATE_FILE,
    JSON.stringify({
      rest,
      gateway: `http://127.0.0.1:${env.GATEWAY_PORT}/graphql`,
      subgraphs: {
        platform: `http://127.0.0.1:${env.PLATFORM_PORT}/graphql`,
        ai: `http://127.0.0.1:${env.AI_PORT}/graphql`,
        catalog: `http://127.0.0.1:${env.CATALOG_PORT}/graphql`,
        search: `http://127.0.0.1:${env.SEARCH_PORT}/graphql`,
      },
      env,
      redis: !!process.env.REDIS_URL,
    }),
  );
}
