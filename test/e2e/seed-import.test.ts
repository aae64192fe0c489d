// npm run seed and npm run import against the test stack, as a user runs them: the seed's printed
// curl and GraphQL examples work as printed; an NDJSON import into an index survives an interrupt
// and resumes where it stopped; CSV rows become products; a JSON array loads into an index.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { rest, stack, uniq } from '../harness/client.js';
import { ROOT } from '../harness/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'seed-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The script's environment: the test stack's secrets and addresses, its own DATA_DIR. */
const env = () => ({ JWT_SECRET: stack().env.JWT_SECRET, REST_URL: stack().rest, GATEWAY_URL: stack().gateway, DATA_DIR: dir, LOG_LEVEL: 'warn' });

/** `npm run <script> -- <args>`, as the npm scripts run it (Node from node_modules, swc register). */
function run(script: string, args: string[], extraEnv: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'node'), ['--import', '@swc-node/register/esm-register', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...env(), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    onSpawn?.(child);
  });
}

let seed: any;

test('npm run seed: a demo tenant with data in every service; the printed examples work as printed', async () => {
  const r = await run('scripts/seed.ts', ['--platform', uniq('demo'), '--products', '5', '--json']);
  expect({ code: r.code, stderr: r.stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
  seed = JSON.parse(r.stdout);
  expect(seed).toMatchObject({ appId: expect.any(String), secretKey: expect.any(String), publishableKey: expect.any(String), products: 5, index: 'books', documents: 244 });
  expect(JSON.parse(readFileSync(join(dir, 'seed.json'), 'utf8')).secretKey).toBe(seed.secretKey);

  const sh = async (cmd: string) => JSON.parse((await promisify(execFile)('sh', ['-c', cmd])).stdout);
  const list = await sh(seed.examples.listProducts);
  expect(list.data).toHaveLength(3);
  expect(list.meta.total).toBe(5);
  const search = await sh(seed.examples.search);
  expect(search.data.attributes.hits.length).toBeGreaterThan(0);
  expect(JSON.stringify(search.data.attributes.hits[0])).toMatch(/Harry Potter/i);
  const gql = await sh(seed.examples.graphql);
  expect(gql.errors).toBeUndefined();
  expect(gql.data.products.total).toBe(5);
  const sentiment = await sh(seed.examples.sentiment);
  expect(sentiment.data.attributes.label).toBe('positive');
}, 180_000);

test('npm run import: NDJSON into an index, interrupted, then resumed to completion', async () => {
  const file = join(dir, 'docs.ndjson');
  const total = 6000;
  writeFileSync(file, Array.from({ length: total }, (_, i) => JSON.stringify({ id: `d${i}`, title: `Document ${i}`, n: i })).join('\n') + '\n');
  const uid = uniq('imp_');
  const args = [file, '--index', uid, '--primary-key', 'id', '--batch', '300', '--concurrency', '1', '--json'];
  const keyEnv = { APP_ID: seed.appId, API_KEY: seed.secretKey };

  // first run: Ctrl-C once some batches are confirmed
  const first = await run('scripts/import.ts', args, keyEnv, (child) => {
    const poll = setInterval(() => {
      const state = stateFile();
      let done = 0;
      try {
        done = state ? (JSON.parse(readFileSync(state, 'utf8')) as { done: number }).done : 0;
      } catch {
        /* caught mid-write: read it next time */
      }
      if (done >= 600) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 20);
    child.once('exit', () => clearInterval(poll));
  });
  const a = JSON.parse(first.stdout.trim().split('\n').pop()!);
  expect([0, 130]).toContain(first.code);
  expect(a.done).toBeGreaterThanOrEqual(600);
  expect(a.done % 300).toBe(0); // whole batches only

  const second = await run('scripts/import.ts', args, keyEnv);
  expect({ code: second.code, stderr: second.stderr.slice(-1000) }).toEqual({ code: 0, stderr: '' });
  const b = JSON.parse(second.stdout.trim().split('\n').pop()!);
  expect(b).toMatchObject({ total, done: total, complete: true, resumedAt: a.done, imported: total - a.done });
  if (first.code === 130) expect(b.resumedAt).toBeLessThan(total);

  const index = await rest('GET', `/search/v1/indexes/${uid}`, { headers: { 'x-app-id': seed.appId, 'x-api-key': seed.secretKey } });
  expect(index.body.data.attributes.number_of_documents).toBe(total);
}, 240_000);

test('npm run import: CSV rows become products (nested columns, a re-run finds them there); a JSON array loads into an index', async () => {
  const sku = uniq('CSV-');
  const csv = join(dir, 'products.csv');
  writeFileSync(csv, `name,sku,price.amount,price.currency,status,description\n"Mug, large",${sku}-1,1200,EUR,active,"A ""big"" mug"\nPlate,${sku}-2,900,EUR,draft,\n`);
  const keyEnv = { APP_ID: seed.appId, API_KEY: seed.secretKey };
  const r = await run('scripts/import.ts', [csv, '--catalog', '--json'], keyEnv);
  expect({ code: r.code, stderr: r.stderr.slice(-1000) }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, done: 2, failed: 0, complete: true });
  const mug = await rest('GET', `/v1/products/sku/${sku}-1`, { headers: { 'x-app-id': seed.appId, 'x-api-key': seed.secretKey } });
  expect(mug.body.data.attributes).toMatchObject({ name: 'Mug, large', description: 'A "big" mug', price: { amount: 1200, currency: 'EUR' }, status: 'active' });
  // again from the start: the SKUs are there, nothing fails
  const again = await run('scripts/import.ts', [csv, '--catalog', '--restart', '--json'], keyEnv);
  expect(JSON.parse(again.stdout)).toMatchObject({ done: 2, failed: 0, complete: true });

  const json = join(dir, 'cities.json');
  writeFileSync(json, JSON.stringify([{ id: 1, name: 'Lyon' }, { id: 2, name: 'Porto' }]));
  const uid = uniq('json_');
  const j = await run('scripts/import.ts', [json, '--index', uid, '--json'], keyEnv);
  expect(JSON.parse(j.stdout)).toMatchObject({ total: 2, done: 2, complete: true });
}, 180_000);

/** The state file of the import under way (this run's DATA_DIR/imports holds only it then). */
function stateFile(): string | undefined {
  const base = join(dir, 'imports');
  const name = existsSync(base) ? readdirSync(base).find((n) => n.endsWith('.json')) : undefined;
  return name && join(base, name);
}
