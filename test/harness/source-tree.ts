// The source files the architecture tests read (architecture.*.test.ts), and a throwaway tree of
// files for their self-tests.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Every .ts file under `dir` (declaration files left out), skipping folders named in `skip`. */
export function tsFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : tsFiles(path, skip);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `check` run on a temporary folder holding `files` (path → text), removed afterwards. */
export function withSourceTree(files: Record<string, string>, check: (base: string) => void): void {
  const base = mkdtempSync(join(tmpdir(), 'source-tree-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    check(base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
