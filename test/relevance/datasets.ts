// The shared datasets (where: scripts/datasets.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { datasetsDir } from '../../scripts/datasets.js';
import { engineFactory, DEFAULT_SETTINGS, type Document, type Engine, type EngineSettings } from '../../subgraphs/search/engine/index.js';

export function datasetPath(file: string): string {
  return resolve(datasetsDir(), file);
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
