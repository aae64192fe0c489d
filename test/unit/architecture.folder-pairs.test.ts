// One module per aggregate (docs/architecture.md): within a subgraph, two aggregate folders never
// import each other both ways. One depends on the other; the way back goes through `ctx.loaders`
// (the other aggregate's DataLoader), a field the aggregate adds to the other's type, or an event.
// The imports are read from the source as the compiler sees them (type-only imports count: they
// couple the folders as much). Files at a subgraph's top (index.ts, context.ts, runtime.ts, sql.ts…)
// are its kernel wiring, not an aggregate, and are left out. The catalog and AI have no such pair;
// platform and search still have the ones listed in KNOWN (docs/architecture.md says why), which may
// only shrink: a new pair fails, and so does a listed pair that is gone (take it off the list).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

/** Pairs still to break, `a <-> b` with a < b, per subgraph. */
const KNOWN: Record<string, string[]> = {
  catalog: [],
  platform: ['accounts <-> notifications'],
  ai: [],
  search: ['documents <-> tasks', 'indexes <-> tasks'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The aggregate folder of a file of the subgraph at `base` (its first folder), or null for a top file or one outside. */
function folderOf(base: string, file: string): string | null {
  const parts = relative(base, file).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/** `a <-> b` for every two folders of the subgraph that import each other, with one import each way. */
function folderPairs(subgraph: string): Map<string, string[]> {
  const base = join(ROOT, 'subgraphs', subgraph);
  const edges = new Map<string, string>();
  for (const file of tsFiles(base)) {
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

test.each(Object.keys(KNOWN))('subgraphs/%s: no two aggregate folders import each other both ways (but the known ones)', (subgraph) => {
  const pairs = folderPairs(subgraph);
  const added = [...pairs].filter(([p]) => !KNOWN[subgraph].includes(p));
  expect(Object.fromEntries(added)).toEqual({});
  expect(KNOWN[subgraph].filter((p) => !pairs.has(p))).toEqual([]);
});

test('the reader finds a pair where there is one, with an import each way (platform: accounts <-> notifications)', () => {
  const pairs = folderPairs('platform');
  expect(pairs.get('accounts <-> notifications')).toEqual([expect.stringMatching(/^accounts\//), expect.stringMatching(/^notifications\//)]);
});
