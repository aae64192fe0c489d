// Where the shared data sets are: DATASETS_DIR when set, else ../shared/datasets beside the
// repository root, else /work/shared/datasets (a clone or worktree elsewhere on the machine, as CI
// makes). One rule for the seed script and the tests.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

export function datasetsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATASETS_DIR) return resolve(env.DATASETS_DIR);
  const beside = resolve(ROOT, '..', 'shared', 'datasets');
  return existsSync(beside) ? beside : '/work/shared/datasets';
}
