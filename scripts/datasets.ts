// Where data sets are read from: DATASETS_DIR when set (larger sets the benchmarks use, or another
// copy), else the project's own datasets/ folder (the small sets the README, the seed and the tests
// use, committed with their licences: datasets/README.md). A file may be stored gzipped (`<name>.gz`).
// One rule for the seed, the import examples, the tests and the benchmarks.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
export const PROJECT_DATASETS = resolve(ROOT, 'datasets');

export function datasetsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATASETS_DIR ? resolve(env.DATASETS_DIR) : PROJECT_DATASETS;
}

/** The path of data set `file` (as given, or its `.gz`), looked up in DATASETS_DIR, then datasets/. */
export function datasetPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const dirs = [...new Set([datasetsDir(env), PROJECT_DATASETS])];
  for (const dir of dirs) {
    for (const name of [file, `${file}.gz`]) {
      const path = resolve(dir, name);
      if (existsSync(path)) return path;
    }
  }
  throw new Error(`data set ${file} is in none of ${dirs.join(', ')}: set DATASETS_DIR to a folder that has it (datasets/README.md)`);
}

/** The text of data set `file`, gunzipped when stored as `.gz`. */
export function readDataset(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = datasetPath(file, env);
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') && !file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}
