// npm run audit:federation: The Guild's federation-gateway-audit (a copy at FEDERATION_AUDIT_DIR,
// default ../shared/federation-audit; not the project's code, so not part of `npm test`) run against
// our gateway core (scripts/federation-gateway.ts: the execution path `npm start` uses, without the
// platform's policy; compiled, as `npm start` runs in production) and against stock @apollo/gateway
// (the audit's own gateways/apollo-gateway/run.ts, only its port moved) in the same run. Prints
// passed/total per suite and overall for both; the last line reads `ours N/T, stock M/T`. Then the
// differential check (scripts/audit-differential.ts): every suite's queries through ours with
// in-flight sharing and the pass-through on and off, answers compared.
// Exit 1 when ours passes fewer cases than stock or the differential check finds a difference.
//
// The audit is copied to .data/federation-audit/ and installed as its ORIGIN.md says (its lock file
// does not install here); the install is kept there and redone only when the audit's package.json
// changes. Ports: FEDERATION_AUDIT_PORT (default 4200) serves the audit's subgraphs, +1 our gateway,
// +2 stock. Our gateway runs with the depth and cost limits raised (MAX_QUERY_DEPTH, MAX_QUERY_COST):
// they are the platform's budget, not federation semantics (three nested lists cost 8,000 > 5,000).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runDifferential } from './audit-differential.js';

const root = resolve(import.meta.dirname, '..');
const source = resolve(process.env.FEDERATION_AUDIT_DIR ?? join(root, '..', 'shared', 'federation-audit'));
if (!existsSync(join(source, 'src', 'cli.ts'))) {
  console.log(`federation audit: no suite at ${source} (set FEDERATION_AUDIT_DIR); skipped`);
  process.exit(0);
}
const base = Number(process.env.FEDERATION_AUDIT_PORT ?? 4200);
if (!Number.isInteger(base) || base < 1 || base > 65530) {
  console.error(`error: FEDERATION_AUDIT_PORT must be a port (1–65530), got ${process.env.FEDERATION_AUDIT_PORT}`);
  process.exit(2);
}
const ports = { subgraphs: base, ours: base + 1, stock: base + 2 };
// @apollo/gateway's usage telemetry stays off, as in the platform (gateway/apollo-telemetry.ts)
process.env.APOLLO_TELEMETRY_DISABLED = '1';
const work = join(root, '.data', 'federation-audit');
const started = performance.now();

/** The stock gateway's packages, as ORIGIN.md names them (the versions the audit's reference set-up uses). */
const STOCK = ['express@5.2.1', '@as-integrations/express5@1.1.2', '@apollo/server@5.5.1', '@apollo/gateway@2.14.1'];

function install(): void {
  mkdirSync(work, { recursive: true });
  // the sources are copied afresh each run (small); node_modules stays
  for (const entry of readdirSync(work, { withFileTypes: true })) if (!['node_modules', '.installed', 'package-lock.json'].includes(entry.name)) rmSync(join(work, entry.name), { recursive: true, force: true });
  for (const entry of readdirSync(source)) if (entry !== 'node_modules' && entry !== 'package-lock.json') cpSync(join(source, entry), join(work, entry), { recursive: true });
  // the copy is ours to write (where CI lays the audit it is read-only)
  spawnSync('chmod', ['-R', 'u+w', work]);
  const original = readFileSync(join(source, 'package.json'), 'utf8');
  const key = createHash('sha256').update(original).update(STOCK.join(' ')).digest('hex');
  const pkg = JSON.parse(original) as Record<string, any>;
  delete pkg.devDependencies;
  delete pkg.overrides;
  pkg.dependencies = { ...pkg.dependencies, tsx: '^4.22', graphql: '^16.13' };
  writeFileSync(join(work, 'package.json'), JSON.stringify(pkg, null, 2));
  const marker = join(work, '.installed');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === key) return;
  console.log(`installing the audit in ${work} (once; kept for later runs)`);
  for (const args of [['install'], ['install', '--legacy-peer-deps', '--no-save', ...STOCK]]) {
    const r = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: work, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${work}`);
  }
  writeFileSync(marker, key);
}

/** A gateway's run script: the audit runs it per suite with the suite's id; it writes that suite's supergraph and starts the gateway (exec, so the audit's kill reaches it). */
function runScript(name: 'ours' | 'stock'): string {
  const dir = join(work, 'gateways', name);
  mkdirSync(dir, { recursive: true });
  const supergraph = `${process.execPath} ${join(work, 'node_modules/tsx/dist/cli.mjs')} ${join(work, 'src/cli.ts')} supergraph --port ${ports.subgraphs} --test "$1" --cwd ${dir}`;
  let start: string;
  if (name === 'ours') {
    // compiled (npm run build, as `npm start` runs in production): the loader's start-up, once per suite, is seconds on a loaded machine
    start = `cd ${root} && MAX_QUERY_DEPTH=100 MAX_QUERY_COST=1000000000 exec ${process.execPath} dist/scripts/federation-gateway.js --supergraph ${join(dir, 'supergraph.graphql')} --port ${ports.ours}`;
  } else {
    // the audit's reference set-up, unchanged but for its port
    const reference = readFileSync(join(work, 'gateways', 'apollo-gateway', 'run.ts'), 'utf8');
    if (!reference.includes('port: 4000')) throw new Error('gateways/apollo-gateway/run.ts no longer listens on `port: 4000`: update scripts/audit-federation.ts');
    writeFileSync(join(dir, 'run.ts'), reference.replace('port: 4000', `port: ${ports.stock}`));
    start = `cd ${dir} && APOLLO_TELEMETRY_DISABLED=1 exec ${process.execPath} ${join(work, 'node_modules/tsx/dist/cli.mjs')} ./run.ts`;
  }
  writeFileSync(join(dir, 'run.sh'), `${supergraph} || exit 1\n${start}\n`);
  return dir;
}

type Results = Map<string, string>;

/** Every suite against one gateway: the audit's `test` command; its results.txt is `id`, `..X.` lines. */
async function audit(name: 'ours' | 'stock'): Promise<Results> {
  const dir = runScript(name);
  const port = ports[name];
  const t0 = performance.now();
  process.stdout.write(`\n${name}: every suite against http://127.0.0.1:${port}/graphql\n`);
  const child = spawn(
    process.execPath,
    [join(work, 'node_modules/tsx/dist/cli.mjs'), join(work, 'src/cli.ts'), 'test', '--cwd', dir, '--run-script', './run.sh', '--reporter', 'dot', '--graphql', `http://127.0.0.1:${port}/graphql`, '--healthcheck', `http://127.0.0.1:${port}/health`, '--port', String(ports.subgraphs), '--write', 'results.txt'],
    // GATEWAY_TIMEOUT: how long the audit waits for a gateway's /health (its default, 5 s, is short on a loaded machine)
    { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GATEWAY_TIMEOUT: process.env.GATEWAY_TIMEOUT ?? '60000', FORCE_COLOR: '0' } },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const file = join(dir, 'results.txt');
  if (code !== 0 || !existsSync(file)) throw new Error(`the audit's run against ${name} failed (exit ${code}):\n${out.slice(-2000)}`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const results: Results = new Map();
  for (let i = 0; i + 1 < lines.length && lines[i] !== ''; i += 2) results.set(lines[i], lines[i + 1]);
  process.stdout.write(`${name}: ${results.size} suites in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  return results;
}

const count = (r: string | undefined) => ({ passed: (r ?? '').split('').filter((c) => c === '.').length, total: (r ?? '').length });

install();
// our core runs compiled (dist/, rebuilt only when a source is newer)
if (spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('npm run build failed');
const ours = await audit('ours');
const stock = await audit('stock');

const ids = [...new Set([...ours.keys(), ...stock.keys()])].sort();
const width = Math.max(...ids.map((id) => id.length));
console.log(`\n${'suite'.padEnd(width)}  ours     stock`);
const regressions: string[] = [];
const bothFail: string[] = [];
const oursOnly: string[] = [];
for (const id of ids) {
  const o = ours.get(id) ?? '';
  const s = stock.get(id) ?? '';
  const co = count(o);
  const cs = count(s);
  const mark = co.passed < cs.passed ? '  <' : '';
  console.log(`${id.padEnd(width)}  ${`${co.passed}/${co.total}`.padEnd(7)}  ${cs.passed}/${cs.total}${mark}`);
  for (let i = 0; i < Math.max(o.length, s.length); i++) {
    const name = `${id}_${i}`;
    if (o[i] !== '.' && s[i] === '.') regressions.push(name);
    else if (o[i] !== '.' && s[i] !== '.') bothFail.push(name);
    else if (o[i] === '.' && s[i] !== '.') oursOnly.push(name);
  }
}
const total = (r: Results) => [...r.values()].reduce((a, v) => ({ passed: a.passed + count(v).passed, total: a.total + count(v).total }), { passed: 0, total: 0 });
const to = total(ours);
const ts = total(stock);
if (regressions.length) console.log(`\ncases stock passes and ours fails: ${regressions.join(', ')}`);
if (bothFail.length) console.log(`cases both fail (ApolloGateway's own): ${bothFail.join(', ')}`);
if (oursOnly.length) console.log(`cases only ours passes: ${oursOnly.join(', ')}`);

const differences = await runDifferential({ work, ids, ports });
console.log(`\nrun time ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`ours ${to.passed}/${to.total}, stock ${ts.passed}/${ts.total}`);
process.exit(to.passed < ts.passed || differences > 0 ? 1 : 0);
