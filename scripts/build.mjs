// npm run build: the TypeScript sources compiled to dist/ with SWC, the same compiler and settings the
// development loader (@swc-node/register) applies at run time (legacy decorators with metadata, no
// define-semantics class fields, class names kept), so production runs exactly what development
// runs, without the loader's memory and start-up cost. Plain JavaScript, so it needs no loader.
// dist/ mirrors the source tree (imports stay relative) with the files read at run time beside it:
// the supergraph schema, the REST bridge's .graphql operations and package.json (version, "type").
import { transformFile } from '@swc/core';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist');
const DIRS = ['lib', 'subgraphs', 'gateway', 'rest-bridge', 'scripts', 'bench'];

const options = {
  swcrc: false,
  sourceMaps: true,
  module: { type: 'es6' },
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
  },
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else yield p;
  }
}

// --if-stale (npm start in production): skip when dist/ is newer than every source file
const stamp = join(OUT, 'package.json');
if (process.argv.includes('--if-stale') && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  const sources = [...DIRS, 'schema'].flatMap((d) => [...files(join(ROOT, d))]);
  if (sources.every((f) => statSync(f).mtimeMs <= built)) process.exit(0);
}

const started = performance.now();
rmSync(OUT, { recursive: true, force: true });
const jobs = [];
let copied = 0;
for (const d of DIRS) {
  for (const src of files(join(ROOT, d))) {
    const rel = relative(ROOT, src);
    const dest = join(OUT, rel);
    mkdirSync(dirname(dest), { recursive: true });
    if (src.endsWith('.d.ts')) continue;
    if (src.endsWith('.ts')) {
      const js = dest.replace(/\.ts$/, '.js');
      jobs.push(
        transformFile(src, { ...options, filename: src, sourceFileName: relative(dirname(js), src) }).then((r) => {
          writeFileSync(js, `${r.code}\n//# sourceMappingURL=${js.split('/').pop()}.map\n`);
          if (r.map) writeFileSync(`${js}.map`, r.map);
        }),
      );
    } else {
      cpSync(src, dest);
      copied++;
    }
  }
}
await Promise.all(jobs);
cpSync(join(ROOT, 'schema'), join(OUT, 'schema'), { recursive: true });
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module' }, null, 2)}\n`);
console.log(`dist/: ${jobs.length} modules compiled, ${copied} files copied, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
