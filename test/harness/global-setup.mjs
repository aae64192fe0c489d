// One stack per test run, booted exactly as `npm start` boots it (scripts/start-all.ts in a child
// process). With DATABASE_URL set, a fresh database is created on that server for the run and
// dropped afterwards; without it, the embedded PostgreSQL runs under .data/test. REDIS_URL, when
// set, is passed through, so the run exercises Redis pub/sub and counters.
// Plain ESM JavaScript: jest loads globalSetup outside its module mapper, so no TS imports here.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { startOtlpReceiver } from './otlp-receiver.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);

async function waitFor(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the test stack exited with ${child.exitCode} (see .data/test-logs/stack.log)`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${last} (see .data/test-logs/stack.log)`);
}

export default async function globalSetup() {
  mkdirSync(resolve(ROOT, '.data', 'test-logs'), { recursive: true });
  let databaseUrl = '';
  let dropDatabase;
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
    GATEWAY_PORT: String(BASE),
    PLATFORM_PORT: String(BASE + 1),
    AI_PORT: String(BASE + 2),
    CATALOG_PORT: String(BASE + 3),
    SEARCH_PORT: String(BASE + 4),
    REST_PORT: String(BASE + 80),
    JWT_SECRET: 'test-jwt-secret',
    INTERNAL_SECRET: 'test-internal-secret',
    DATABASE_URL: databaseUrl,
    EMBEDDED_PG_PORT: String(BASE + 329),
    DATA_DIR: resolve(ROOT, '.data', 'test'),
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_NETWORK_FETCH: '1',
    API_KEY_CACHE_TTL_MS: '1000',
    WEBHOOK_POLL_MS: '200',
    WEBHOOK_RETRY_BASE_MS: '300',
    // domain verification asks the tests' DNS server (test/harness/dns-server.ts, started by the tests that need it)
    DNS_SERVERS: `127.0.0.1:${BASE + 53}`,
    // other runs may share this Redis: their gateways must not drain this run's usage counters
    REDIS_KEY_PREFIX: `sgtest_${process.pid}_${BASE}:`,
    // the "load balancer" of the tests connects from 127.0.0.2 (test/harness/client.ts gqlVia); other
    // loopback clients are clients, whose X-Forwarded-For is ignored
    TRUSTED_PROXIES: '127.0.0.2',
    // search: plan limits for contexts without a plan (tests of the Free limits pass a plan explicitly),
    // quick webhook retries and task leases so retry and crash tests finish in seconds
    SEARCH_DEFAULT_PLAN: 'growth',
    SEARCH_WEBHOOK_BACKOFF_MS: '200',
    SEARCH_TASK_LEASE_MS: '3000',
    SEARCH_POLL_MS: '200',
    // prompt execution: the chat-completions server of test/harness/llm-server.ts (started by the tests that need it)
    AI_LLM_BASE_URL: `http://127.0.0.1:${BASE + 54}/v1`,
    AI_LLM_API_KEY: 'test-llm-key',
    AI_LLM_MODEL: 'test-chat',
    AI_LLM_TIMEOUT_MS: '1500',
    // CORS for JWT requests (lib/cors.ts): the one browser origin test/e2e/cors.test.ts treats as configured
    CORS_ORIGINS: 'http://jwt-console.test:5173',
    // every e2e suite calls from 127.0.0.1 and the fuzz and security suites send many unknown keys:
    // the per-address budget for unknown keys (unit-tested in gateway.api-key.test.ts) is raised here
    UNKNOWN_KEYS_PER_MINUTE: '1000000',
    // the visual-search and image suites send dozens of photos with one key: the per-key image budget
    // (IMAGE_BUDGET_PER_MINUTE, 30) is lifted here; test/e2e/image-bounds.test.ts checks it on a gateway of its own
    IMAGE_BUDGET_PER_MINUTE: '1000000',
    // suites send thousands of operations with one key: the per-key query cost budget (COST_BUDGET_PER_MINUTE,
    // by plan, docs/cost.md) is lifted here; test/e2e/cost.test.ts checks it on a gateway of its own
    COST_BUDGET_PER_MINUTE: '1000000000',
    // tokens minted without a sub share one (test/harness/client.ts HARNESS_OPERATOR): the whole run's
    // platform traffic must not meet the per-user JWT limit
    JWT_RATE_LIMIT_PER_MINUTE: '1000000',
    // traces go to the run's OTLP receiver (test/harness/otlp-receiver.mjs), read by test/e2e/telemetry.test.ts
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${BASE + 55}`,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  const otlp = await startOtlpReceiver(BASE + 55);
  const log = createWriteStream(resolve(ROOT, '.data', 'test-logs', 'stack.log'));
  // the system's Node options (package.json config.nodeFlags, as scripts/node-flags.ts reads them)
  const flags = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).config?.nodeFlags ?? '').split(' ').filter(Boolean);
  const child = spawn(resolve(ROOT, 'node_modules', '.bin', 'node'), [...flags, '--import', '@swc-node/register/esm-register', 'scripts/start-all.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  globalThis.__STACK__ = { child, dropDatabase, otlp };
  const rest = `http://127.0.0.1:${env.REST_PORT}`;
  // TEST_STACK_START_MS (or TEST_STACK_TIMEOUT_MS): the start-up allowance (a loaded machine needs minutes)
  await waitFor(`${rest}/health/ready`, Number(process.env.TEST_STACK_START_MS || process.env.TEST_STACK_TIMEOUT_MS || 300_000), child);
  writeFileSync(
    // one file per port base: two runs sharing a checkout (different TEST_PORT_BASE) keep their own stack
    resolve(ROOT, '.data', `test-stack-${BASE}.json`),
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
