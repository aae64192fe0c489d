// One module per aggregate (docs/architecture.md): within a subgraph, two aggregate folders never
// import each other both ways. One depends on the other; the way back goes through `ctx.loaders`
// (the other aggregate's DataLoader), a field the aggregate adds to the other's type, or an event.
// The imports are read from the source as the compiler sees them (type-only imports count: they
// couple the folders as much). Files at a subgraph's top (index.ts, context.ts, runtime.ts, sql.ts…)
// are its kernel wiring, not an aggregate, and are left out. No subgraph has such a pair, and none may
// gain one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { tsFiles, withSourceTree } from '../harness/source-tree.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every subgraph: the folders under subgraphs/. */
const SUBGRAPHS = readdirSync(join(ROOT, 'subgraphs')).filter((name) => statSync(join(ROOT, 'subgraphs', name)).isDirectory());

/** The aggregate folder of a file of the subgraph at `base` (its first folder), or null for a top file or one outside. */
function folderOf(base: string, file: string): string | null {
  const parts = relative(base, file).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/** `a <-> b` for every two folders under `base` (a subgraph) that import each other, with one import each way. */
function folderPairs(base: string): Map<string, string[]> {
  const edges = new Map<string, string>();
  for (const file of tsFiles(base, ['migrations'])) {
    const from = folderOf(base, file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(base, resolve(dirname(file), fileName));
      if (to && to !== from && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, `${relative(base, file)} -> ${fileName}`);
    }
  }
  const pairs = new Map<string, string[]>();
  for (const [key, example] of edges) {
    const [a, b] = key.split('>');
    const back = edges.get(`${b}>${a}`);
    if (a < b && back) pairs.set(`${a} <-> ${b}`, [example, back]);
  }
  return pairs;
}

test('every subgraph is read', () => {
  expect(SUBGRAPHS).toEqual(expect.arrayContaining(['ai', 'catalog', 'platform', 'search']));
});

test.each(SUBGRAPHS)('subgraphs/%s: no two aggregate folders import each other both ways', (subgraph) => {
  expect(Object.fromEntries(folderPairs(join(ROOT, 'subgraphs', subgraph)))).toEqual({});
});

test('the reader finds a pair where there is one, with an import each way (type imports too)', () => {
  const files = {
    'accounts/account.service.ts': "import { record } from '../notifications/events.js';\n",
    'notifications/events.ts': "import type { Account } from '../accounts/account.type.js';\n",
    'notifications/other.ts': "import { x } from '../context.js';\n", // a top file: no folder
    'apps/app.ts': "import { a } from '../accounts/account.type.js';\n", // one way only
  };
  withSourceTree(files, (base) =>
    expect(Object.fromEntries(folderPairs(base))).toEqual({
      'accounts <-> notifications': ['accounts/account.service.ts -> ../notifications/events.js', 'notifications/events.ts -> ../accounts/account.type.js'],
    }),
  );
});
