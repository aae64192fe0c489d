// The newcomer's helpers: the data sets found in the project (DATASETS_DIR first, gzipped files read
// as they are), the start banner's next steps, GraphiQL's ?headers= and the scripts' --help and
// one-line option errors.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { datasetPath, readDataset, PROJECT_DATASETS } from '../../scripts/datasets.js';
import { nextSteps } from '../../scripts/start-banner.js';
import { headersParam } from '../../gateway/graphiql.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('data sets', () => {
  test('the project carries what the seed and the tests read, with no DATASETS_DIR and nothing beside it', () => {
    const env = {};
    expect(datasetPath('books.json', env)).toBe(join(PROJECT_DATASETS, 'books.json'));
    expect(JSON.parse(readDataset('books.json', env))).toHaveLength(244);
    expect(JSON.parse(readDataset('restaurants.json', env))).toHaveLength(200);
    // stored gzipped, read by its plain name
    expect(datasetPath('world-cities.json', env)).toBe(join(PROJECT_DATASETS, 'world-cities.json.gz'));
    expect(JSON.parse(readDataset('world-cities.json', env))).toHaveLength(4449);
  });

  test('DATASETS_DIR is looked at first, the project next; a missing file names both places', () => {
    const dir = mkdtempSync(join(tmpdir(), 'datasets-'));
    try {
      writeFileSync(join(dir, 'books.json'), '[{"id":"x"}]');
      writeFileSync(join(dir, 'extra.jsonl.gz'), gzipSync('{"id":1}\n'));
      const env = { DATASETS_DIR: dir };
      expect(JSON.parse(readDataset('books.json', env))).toEqual([{ id: 'x' }]);
      expect(datasetPath('restaurants.json', env)).toBe(join(PROJECT_DATASETS, 'restaurants.json'));
      expect(datasetPath('extra.jsonl.gz', env)).toBe(join(dir, 'extra.jsonl.gz'));
      expect(() => datasetPath('debian-packages.jsonl.gz', env)).toThrow(new RegExp(`data set debian-packages.jsonl.gz is in none of ${dir}, ${PROJECT_DATASETS}: set DATASETS_DIR`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the start banner names the seed and the three pages at the addresses started', () => {
  const text = nextSteps({ host: '127.0.0.1', restPort: 8181, gatewayUrl: 'http://127.0.0.1:4141/graphql' });
  expect(text).toMatch(/npm run seed/);
  expect(text).toContain('http://127.0.0.1:4141/graphql (GraphiQL)');
  expect(text).toContain('http://127.0.0.1:8181/docs (REST reference)');
  expect(text).toContain('http://127.0.0.1:8181/data-room (data room)');
});

test("GraphiQL's ?headers= takes a flat object of header names and printable values, nothing else", () => {
  const h = { 'X-App-Id': 'app_1', 'X-Api-Key': 'sk_live_x' };
  expect(JSON.parse(headersParam(`/graphql?headers=${encodeURIComponent(JSON.stringify(h))}`)!)).toEqual(h);
  for (const bad of ['not json', '[1]', '{"a b":"x"}', '{"X":1}', '{"X":"</script><script>alert(1)</script>\\n"}', '{"X":"\\u0000"}']) {
    expect(headersParam(`/graphql?headers=${encodeURIComponent(bad)}`)).toBeUndefined();
  }
  expect(headersParam('/graphql')).toBeUndefined();
});

describe('the scripts say how they are used', () => {
  const run = (script: string, args: string[]) =>
    promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'node'), ['--import', '@swc-node/register/esm-register', script, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  test.each(['scripts/mint-token.ts', 'scripts/seed.ts', 'scripts/import.ts'])('%s --help prints the usage; an unknown option one line and the usage', async (script) => {
    const help = await run(script, ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run/);
    const bad = await run(script, ['--no-such-option']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: Unknown option '--no-such-option'[^\n]*\nusage: npm run/);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  test('mint-token: a lifetime the gateway would reject is refused, naming JWT_MAX_LIFETIME_SEC', async () => {
    const r = await run('scripts/mint-token.ts', ['--expires', '90000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --expires 90000 is longer than the gateway accepts \(JWT_MAX_LIFETIME_SEC=86400\)/);
    const ok = await run('scripts/mint-token.ts', []);
    const claims = JSON.parse(Buffer.from(ok.stdout.trim().split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(3600);
  }, 60_000);
});
