// npm run seed and npm run import against the test stack, as a user runs them (npm run -s): the seed
// with its defaults twice (one tenant, the same keys; its printed curl lines and GraphiQL link work
// as printed); an NDJSON import into an index survives an interrupt
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

/**
 * `npm run -s <script> -- <args>`, as a user types it (package.json's script, Node from node_modules);
 * `direct` runs the script file itself, so a signal reaches it rather than npm.
 */
function run(script: string, args: string[], extraEnv: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void, direct = false): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [cmd, argv] = direct ? [join(ROOT, 'node_modules', '.bin', 'node'), ['--import', '@swc-node/register/esm-register', `scripts/${script}.ts`, ...args]] : ['npm', ['run', '-s', script, '--', ...args]];
    const child = spawn(cmd, argv, {
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
const bash = async (cmd: string) => JSON.parse((await promisify(execFile)('bash', ['-c', cmd])).stdout);

test('npm run seed with its defaults, twice: one demo tenant, the same keys, examples that work as printed', async () => {
  // first run: what a newcomer reads
  const first = await run('seed', []);
  expect({ code: first.code, stderr: first.stderr.slice(-2000) }).toMatchObject({ code: 0 });
  const saved = JSON.parse(readFileSync(join(dir, 'seed.json'), 'utf8'));
  expect(saved).toMatchObject({ platform: 'demo', account: 'demo-books', products: 24, index: 'books', documents: 244 });
  expect(first.stdout).toContain(`secret key      ${saved.secretKey}`);
  expect(first.stdout).toContain(`publishable key ${saved.publishableKey}`);
  // every curl line it prints, pasted into bash as it is
  const curls = first.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('curl '));
  expect(curls).toHaveLength(4);
  const [list, search, gql, sentiment] = await Promise.all(curls.map(bash));
  expect(list.data).toHaveLength(3);
  expect(list.meta.total).toBe(24);
  expect(JSON.stringify(search.data.attributes.hits[0])).toMatch(/Harry Potter/i);
  expect(gql.errors).toBeUndefined();
  expect(gql.data.products.total).toBe(24);
  expect(sentiment.data.attributes.label).toBe('positive');
  // the GraphiQL link opens the explorer with the seed's key in its Headers tab
  const link = /^ {2}(http\S+\?headers=\S+)$/m.exec(first.stdout)![1];
  const page = await (await fetch(link, { headers: { accept: 'text/html' } })).text();
  const config = JSON.parse(/const RURU_CONFIG = (\{[\s\S]*?\});\n/.exec(page)![1]);
  expect(JSON.parse(config.initialHeaders)).toEqual({ 'X-App-Id': saved.appId, 'X-Api-Key': saved.secretKey });

  // second run: the same tenant and keys, nothing made twice
  const second = await run('seed', ['--json']);
  expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
  seed = JSON.parse(second.stdout);
  expect(seed).toMatchObject({ appId: saved.appId, secretKey: saved.secretKey, publishableKey: saved.publishableKey, account: 'demo-books', prompt: saved.prompt, products: 24 });
  const admin = { authorization: `Bearer ${seed.adminToken}`, 'x-platform': 'demo' };
  const accounts = await rest('GET', '/accounts', { headers: admin });
  expect(accounts.body.data.map((a: any) => a.attributes.url_id)).toEqual(['demo-books']);
  expect((await rest('GET', '/accounts/demo-books/apps', { headers: admin })).body.data).toHaveLength(1);
  expect((await rest('GET', '/accounts/demo-books/subscriptions', { headers: admin })).body.data).toHaveLength(1);
  const keyHeaders = { 'x-app-id': seed.appId, 'x-api-key': seed.secretKey };
  expect((await rest('GET', '/v1/products?page[size]=1', { headers: keyHeaders })).body.meta.total).toBe(24);
  expect((await rest('GET', '/search/v1/indexes/books', { headers: keyHeaders })).body.data.attributes.number_of_documents).toBe(244);

  // --env: exports for eval, the README's way to its keys
  const exported = await run('seed', ['--env']);
  expect(exported.stdout).toContain(`export APP_ID='${seed.appId}'\nexport API_KEY='${seed.secretKey}'`);
}, 300_000);

test('npm run seed: a step the API refuses → one line naming the step and the answer, exit 1, no stack trace', async () => {
  const r = await run('seed', ['--platform', 'Not A Code!']);
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^error: seed stopped while creating the platform: HTTP 4\d\d \w+.*Run `npm run seed` again/);
}, 60_000);

test('npm run seed: a stack that is not there → one line saying to start it, exit 1', async () => {
  const r = await run('seed', [], { REST_URL: 'http://127.0.0.1:1' });
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^error: the REST bridge at http:\/\/127\.0\.0\.1:1 is not ready .*npm start/);
}, 60_000);

test('npm run import: NDJSON into an index, interrupted, then resumed to completion', async () => {
  const file = join(dir, 'docs.ndjson');
  const total = 6000;
  writeFileSync(file, Array.from({ length: total }, (_, i) => JSON.stringify({ id: `d${i}`, title: `Document ${i}`, n: i })).join('\n') + '\n');
  const uid = uniq('imp_');
  const args = [file, '--index', uid, '--primary-key', 'id', '--batch', '300', '--concurrency', '1', '--json'];
  const keyEnv = { APP_ID: seed.appId, API_KEY: seed.secretKey };

  // first run: Ctrl-C once some batches are confirmed
  const first = await run('import', args, keyEnv, (child) => {
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
  }, true);
  const a = JSON.parse(first.stdout.trim().split('\n').pop()!);
  expect([0, 130]).toContain(first.code);
  expect(a.done).toBeGreaterThanOrEqual(600);
  expect(a.done % 300).toBe(0); // whole batches only

  const second = await run('import', args, keyEnv);
  expect({ code: second.code, stderr: second.stderr.slice(-1000) }).toEqual({ code: 0, stderr: '' });
  const b = JSON.parse(second.stdout.trim().split('\n').pop()!);
  expect(b).toMatchObject({ total, done: total, complete: true, resumedAt: a.done, imported: total - a.done });
  if (first.code === 130) expect(b.resumedAt).toBeLessThan(total);

  // once more: nothing left, and it says so
  const third = await run('import', args.filter((a) => a !== '--json'), keyEnv);
  expect(third.code).toBe(0);
  expect(third.stderr).toContain(`nothing to import: all 6,000 records of ${file} were imported into index ${uid} by an earlier run`);

  const index = await rest('GET', `/search/v1/indexes/${uid}`, { headers: { 'x-app-id': seed.appId, 'x-api-key': seed.secretKey } });
  expect(index.body.data.attributes.number_of_documents).toBe(total);
}, 240_000);

test('npm run import: CSV rows become products (nested columns, a re-run finds them there); a JSON array loads into an index', async () => {
  const sku = uniq('CSV-');
  const csv = join(dir, 'products.csv');
  writeFileSync(csv, `name,sku,price.amount,price.currency,status,description\n"Mug, large",${sku}-1,1200,EUR,active,"A ""big"" mug"\nPlate,${sku}-2,900,EUR,draft,\n`);
  const keyEnv = { APP_ID: seed.appId, API_KEY: seed.secretKey };
  const r = await run('import', [csv, '--catalog', '--json'], keyEnv);
  expect({ code: r.code, stderr: r.stderr.slice(-1000) }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, done: 2, failed: 0, complete: true });
  const mug = await rest('GET', `/v1/products/sku/${sku}-1`, { headers: { 'x-app-id': seed.appId, 'x-api-key': seed.secretKey } });
  expect(mug.body.data.attributes).toMatchObject({ name: 'Mug, large', description: 'A "big" mug', price: { amount: 1200, currency: 'EUR' }, status: 'active' });
  // again from the start: the SKUs are there, nothing fails
  const again = await run('import', [csv, '--catalog', '--restart', '--json'], keyEnv);
  expect(JSON.parse(again.stdout)).toMatchObject({ done: 2, failed: 0, complete: true });

  const json = join(dir, 'cities.json');
  writeFileSync(json, JSON.stringify([{ id: 1, name: 'Lyon' }, { id: 2, name: 'Porto' }]));
  const uid = uniq('json_');
  const j = await run('import', [json, '--index', uid, '--json'], keyEnv);
  expect(JSON.parse(j.stdout)).toMatchObject({ total: 2, done: 2, complete: true });
}, 180_000);

/** The state file of the import under way (this run's DATA_DIR/imports holds only it then). */
function stateFile(): string | undefined {
  const base = join(dir, 'imports');
  const name = existsSync(base) ? readdirSync(base).find((n) => n.endsWith('.json')) : undefined;
  return name && join(base, name);
}
