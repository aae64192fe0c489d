// Account services and data transfers, measured through the REST bridge on one stack:
//  1. storing a credential (validation, AES-256-GCM sealing, outbox rows, one transaction);
//  2. listing 50 credentials (masked);
//  3. event latency: from the 201 of a credential write to the signed webhook arriving at a local
//     receiver (outbox commit → worker kick → claim → POST);
//  4. logo upload through the presigned URL, streamed by the bridge into the object store (local,
//     or S3 with OBJECT_STORE=s3 and S3_*): 100 KiB and 5 MiB, one gateway call each;
//  5. the public data-transfer details page (no credentials; one audit row per view).
// Run: BENCH_PORT_BASE=… [DATABASE_URL=…] npx node --import @swc-node/register/esm-register bench/account-services.bench.ts
// BENCH_S3=1 runs the stack on OBJECT_STORE=s3 against an S3-compatible server (s3rver) started here.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { startStack } from '../scripts/stack.js';
import { tinyPng } from '../test/harness/platform-services.fixtures.js';
import { startS3Server } from '../test/harness/s3-server.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential, summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 300);
const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 16000);
const scratch = await scratchDatabase('as');
const dbUrl = scratch.url;
const s3 = process.env.BENCH_S3 === '1' ? await startS3Server('bench-objects') : undefined;
const env = {
  ...process.env,
  ...s3?.env,
  DATABASE_URL: dbUrl ?? '',
  ...stackPorts(base),
  DATA_DIR: resolve(ROOT, '.data', 'bench'),
  JWT_SECRET: 'bench-secret',
  LOG_LEVEL: 'error',
  ALLOW_PRIVATE_NETWORK_FETCH: '1',
};
const cfg = loadConfig(env);
const stack = await startStack(cfg, createLogger({}, 'error'));
const rest = `http://127.0.0.1:${cfg.restPort}`;

const now = Math.floor(Date.now() / 1000);
const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
const code = `benchas${process.pid}`;
const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };
const call = async (method: string, path: string, type?: string, attributes?: Record<string, unknown>, headers: Record<string, string> = ph) => {
  const r = await fetch(`${rest}${path}`, { method, headers, body: type ? JSON.stringify({ data: { type, attributes } }) : undefined });
  const body = (await r.json()) as any;
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(body)}`);
  return body.data;
};

// receiver for the event-latency measurement
const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as any;
    if (body.data?.credential_id) arrivals.set(body.data.credential_id, performance.now());
    res.writeHead(204);
    res.end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

try {
  await call('POST', '/platforms', 'platforms', { code, name: 'Bench' });
  const acct = await call('POST', '/accounts', 'accounts', { name: 'Bench', code, deployment_model: 'dedicated_cloud' });
  const url = acct.attributes.url_id;
  console.log(`account services bench (N=${N}; ${stack.subgraphs.length} subgraphs, gateway, REST bridge in this process; object store ${cfg.objectStore.kind}; 2 shared cores)`);

  let i = 0;
  console.log(fmt('POST /keys (seal + outbox, no webhook targets)', await sequential(N, 20, () => call('POST', `/accounts/${url}/keys`, 'credentials', { name: `k${i++}`, provider: 'stripe', secret: `sk_bench_${i}_abcdefghijklmnop` }))));

  const other = await call('POST', '/accounts', 'accounts', { name: 'Bench list', code: `${code}l`, deployment_model: 'dedicated_cloud' });
  for (let k = 0; k < 50; k++) await call('POST', `/accounts/${other.attributes.url_id}/keys`, 'credentials', { name: `k${k}`, provider: 'aws', secret: `secret-value-number-${k}` });
  console.log(fmt('GET /keys (50 credentials, masked)', await sequential(N, 20, () => call('GET', `/accounts/${other.attributes.url_id}/keys`))));

  const app = await call('POST', `/accounts/${url}/apps`, 'apps', { name: 'Hooked', webhook_url: hookUrl });
  await call('POST', `/accounts/${url}/apps/${app.id}/webhook_secret`);
  const latencies: number[] = [];
  const started = performance.now();
  for (let k = 0; k < Math.min(N, 200); k++) {
    const c = await call('POST', `/accounts/${url}/keys`, 'credentials', { name: `hooked${k}`, provider: 'github', secret: `ghp_bench_${k}_abcdefghijklmnop` });
    const committed = performance.now();
    while (!arrivals.has(c.id)) await new Promise((r) => setTimeout(r, 1));
    latencies.push(arrivals.get(c.id)! - committed);
  }
  console.log(fmt('event: 201 → signed webhook received', summarize(latencies, performance.now() - started)));

  for (const [label, size] of [
    ['logo PUT 100 KiB (streamed to the store)', 100 * 1024],
    ['logo PUT 5 MiB (streamed to the store)', 5 * 1024 * 1024],
  ] as const) {
    const body = Buffer.concat([tinyPng(16, 16), Buffer.alloc(size, 1)]);
    const samples: number[] = [];
    const t0 = performance.now();
    for (let k = 0; k < 20; k++) {
      const grant = await call('POST', `/accounts/${url}/logo/presign`);
      const t = performance.now();
      const r = await fetch(grant.attributes.upload_url, { method: 'PUT', body: new Uint8Array(body) });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`upload: ${r.status}`);
      samples.push(performance.now() - t);
    }
    console.log(fmt(label, summarize(samples, performance.now() - t0)));
  }

  const transfer = await call('POST', `/accounts/${url}/data_transfers`, 'data_transfers', { title: 'Bench', recipient_email: 'r@example.com', agreement: 'A' });
  console.log(fmt('GET /data_transfers/:code (public, audited)', await sequential(N, 20, () => call('GET', `/data_transfers/${transfer.attributes.code}`, undefined, undefined, {}))));
} finally {
  receiver.close();
  await stack.stop();
  await s3?.stop();
  await scratch.drop();
}
process.exit(0);
