// No import cycle among the product's files (docs/architecture.md: which way folders import): every
// relative import of lib/, gateway/, rest-bridge/, subgraphs/ and scripts/, type-only imports and
// re-exports included (they couple files as much), read as the compiler sees them; a cycle of files
// is a strongly connected component of two or more (Tarjan). What `madge --circular` reports, in CI.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { tsFiles, withSourceTree } from '../harness/source-tree.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DIRS = ['lib', 'gateway', 'rest-bridge', 'subgraphs', 'scripts'];

/** The file a relative specifier names (`./x.js` → `x.ts`, a folder → its index.ts), or undefined. */
function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  return undefined;
}

/** Each cycle (files relative to `root`, sorted) among the files under `dirs`. */
function importCycles(root: string, dirs: string[]): string[][] {
  const files = dirs.flatMap((d) => (existsSync(join(root, d)) ? tsFiles(join(root, d)) : []));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const out: string[] = [];
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, false).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = target(file, fileName);
      if (to) out.push(to);
    }
    edges.set(file, out);
  }
  // Tarjan's strongly connected components, iteratively (no recursion depth limit)
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of files) {
    if (index.has(start)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const outs = edges.get(top.v) ?? [];
      if (top.i < outs.length) {
        const w = outs[top.i++];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].v, Math.min(low.get(work[work.length - 1].v)!, low.get(top.v)!));
      if (low.get(top.v) !== index.get(top.v)) continue;
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(relative(root, w));
        if (w === top.v) break;
      }
      if (component.length > 1) cycles.push(component.sort());
    }
  }
  return cycles;
}

test('no import cycle among the files of lib, gateway, rest-bridge, subgraphs and scripts', () => {
  expect(importCycles(ROOT, DIRS)).toEqual([]);
});

test('the reader finds a cycle through a type-only import and a re-export, and nothing in a chain', () => {
  const files = {
    'lib/a.ts': "import type { B } from './b.js';\n",
    'lib/b.ts': "export { c } from './c/index.js';\n",
    'lib/c/index.ts': "import { a } from '../a.js';\n",
    'lib/d.ts': "import { a } from './a.js';\n", // into the cycle, not part of it
    'lib/e.ts': "import { d } from './d.js';\n",
  };
  withSourceTree(files, (base) => expect(importCycles(base, ['lib'])).toEqual([['lib/a.ts', 'lib/b.ts', 'lib/c/index.ts']]));
});
