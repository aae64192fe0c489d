// The README cannot drift: every ```bash block runs, in order, in one bash session as a reader's
// terminal would (variables carry from block to block), against the test stack (the README's
// :8080 and :4000 rewritten to its ports, its JWT secret, a DATA_DIR of its own); curl fails on an
// HTTP error there. Blocks that are not run (installing, starting, the test command) are ```sh, and
// hold nothing else. The quick start stays within 15 lines, docs/README.md lists every document, and
// every relative link resolves.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stack } from '../harness/client.js';
import { ROOT } from '../harness/spawn.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  lang: string;
  code: string;
  line: number;
}

function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const re = /^( *)```(\w*)\n([\s\S]*?)\n\1```$/gm;
  for (let m; (m = re.exec(markdown)); ) {
    const indent = m[1].length;
    out.push({ lang: m[2], code: m[3].split('\n').map((l) => l.slice(indent)).join('\n'), line: markdown.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** The README's addresses, as the test stack serves them. */
function localise(code: string): string {
  const rest = new URL(stack().rest).host;
  const gateway = new URL(stack().gateway).host;
  return code.replace(/\b(localhost|127\.0\.0\.1):8080\b/g, rest).replace(/\b(localhost|127\.0\.0\.1):4000\b/g, gateway);
}

test('every bash block of the README runs as pasted against a started stack', async () => {
  const runnable = blocks(README).filter((b) => b.lang === 'bash');
  expect(runnable.length).toBeGreaterThanOrEqual(5);
  const dir = mkdtempSync(join(tmpdir(), 'readme-'));
  // one session; a marker before each block tells which one failed
  const script = [
    'set -euo pipefail',
    // as pasted, curl prints an error body and goes on; here it must not
    'curl() { command curl --fail-with-body "$@"; }',
    ...runnable.map((b) => `echo "@@block ${b.line}" >&2\n${localise(b.code)}\necho`),
  ].join('\n');
  try {
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const child = spawn('bash', ['-c', script], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          JWT_SECRET: stack().env.JWT_SECRET,
          REST_URL: stack().rest,
          GATEWAY_URL: stack().gateway,
          DATA_DIR: dir,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.once('exit', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
    const failedAt = [...r.stderr.matchAll(/@@block (\d+)/g)].pop()?.[1];
    expect({ code: r.code, failedAtReadmeLine: r.code ? failedAt : undefined, tail: r.code ? (r.stdout + r.stderr).slice(-3000) : '' }).toEqual({ code: 0, failedAtReadmeLine: undefined, tail: '' });
    // what the blocks printed is what the README says they print
    // the quick start's query, on the seed's data (24 books, more when another test imported into the demo app)
    expect(r.stdout).toMatch(/\{"data":\{"products":\{"total":(2[4-9]|[3-9]\d),"items":\[\{"name":"[^"]+","price":\{"formatted":"[$€]\d+\.\d\d"\}\}/);
    expect(r.stdout).toMatch(/"sku":"LAMP-1"/); // the product made by the Examples
    expect(r.stdout).toMatch(/"currentApp":\{"id":"app_\w+","name":"Storefront","products":\[\{"id":"prod_\w+","name":"Desk lamp"/);
    expect(r.stdout).toMatch(/Harry Potter/); // the seed's search example
    expect(r.stdout).not.toMatch(/"errors":/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);

test('shell blocks that are not run (```sh) only install, start or test', () => {
  const notRun = blocks(README).filter((b) => b.lang === 'sh' || b.lang === 'shell' || b.lang === '');
  for (const b of notRun.filter((x) => x.lang !== '')) {
    for (const line of b.code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))) {
      expect([b.line, line]).toEqual([b.line, expect.stringMatching(/^(npm (install|ci|start|test)\b|([A-Z_]+=\S+ )+npm (start|test)\b)/)]);
    }
  }
});

test('the quick start is first and within 15 lines; every relative link of the README and docs/ resolves', () => {
  const sections = README.split(/^## /m);
  expect(sections[1].startsWith('Quick start\n')).toBe(true);
  expect(sections[1].trim().split('\n').length - 1).toBeLessThanOrEqual(15);
  // docs/README.md lists every document of docs/
  const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  for (const doc of readdirSync(join(ROOT, 'docs')).filter((f) => f !== 'README.md')) expect([doc, index.includes(`](${doc})`)]).toEqual([doc, true]);
  const docs = ['README.md', 'docs/README.md', 'docs/architecture.md', 'datasets/README.md'];
  for (const file of docs) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      expect([file, target, existsSync(resolve(ROOT, dirname(file), target))]).toEqual([file, target, true]);
    }
  }
});
