// The data sets of the relevance tests (datasets/, or DATASETS_DIR: scripts/datasets.ts).
import { datasetPath as find, readDataset } from '../../scripts/datasets.js';
import { engineFactory, DEFAULT_SETTINGS, type Document, type Engine, type EngineSettings } from '../../lib/search-engine/index.js';

export function datasetPath(file: string): string {
  return find(file);
}

export function load(file: string): Document[] {
  return JSON.parse(readDataset(file)) as Document[];
}

/** An engine fed in batches of `batch`, so results also exercise several segments. */
export function indexOf(docs: Document[], settings: Partial<EngineSettings>, primaryKey: string, batch = 100): Engine {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, ...settings });
  for (let i = 0; i < docs.length; i += batch) e.addDocuments(docs.slice(i, i + batch), primaryKey);
  return e;
}
