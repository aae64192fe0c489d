// The shared datasets (../shared/datasets beside the repository root; /work/shared in a worktree setup).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engineFactory, DEFAULT_SETTINGS, type Document, type Engine, type EngineSettings } from '../../subgraphs/search/engine/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function datasetPath(file: string): string {
  if (process.env.DATASETS_DIR) return resolve(process.env.DATASETS_DIR, file);
  const beside = resolve(ROOT, '..', 'shared', 'datasets', file);
  // a git worktree may sit one level deeper than the main checkout; /work/shared is the shared folder
  return existsSync(beside) ? beside : resolve('/work/shared/datasets', file);
}

export function load(file: string): Document[] {
  return JSON.parse(readFileSync(datasetPath(file), 'utf8')) as Document[];
}

/** An engine fed in batches of `batch`, so results also exercise several segments. */
export function indexOf(docs: Document[], settings: Partial<EngineSettings>, primaryKey: string, batch = 100): Engine {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, ...settings });
  for (let i = 0; i < docs.length; i += batch) e.addDocuments(docs.slice(i, i + batch), primaryKey);
  return e;
}
