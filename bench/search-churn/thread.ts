// The engine thread of bench/search-churn-memory.bench.ts: builds a 1,000-document engine as the
// search service's engine thread builds one from rows (each body parsed from its JSON text, as pg hands
// jsonb over), compacts it, and hands it over through the service's own protocol
// (engine-registry/engine-thread.serve.ts): typed arrays transferred, external ids pulled in chunks.
import { workerData } from 'node:worker_threads';
import { engineFactory } from '../../lib/search-engine/index.js';
import { serveEngineThread } from '../../subgraphs/search/engine-registry/engine-thread.serve.js';
import { settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import type { IndexSettingsData } from '../../subgraphs/search/indexes/index-settings.rules.js';
import { loadDebian } from '../search-corpus.js';

const { perIndex, settings } = workerData as {
  perIndex: number;
  settings: IndexSettingsData;
};
// The corpus as JSON lines in one buffer, off the V8 heap: the service's engine thread holds no corpus,
// and a heap holding one (~60 MiB of objects) would collect later and keep more garbage than it does.
const lines = loadDebian().map((d) => Buffer.from(JSON.stringify(d)));
const ends = new Uint32Array(lines.length);
for (let k = 0, end = 0; k < lines.length; k++) ends[k] = end += lines[k].length;
const text = Buffer.concat(lines);
lines.length = 0;
const row = (k: number) => text.toString('utf8', k === 0 ? 0 : ends[k - 1], ends[k]);

serveEngineThread(async (indexId) => {
  const i = Number(indexId.slice(1));
  // the rows as PostgreSQL sends them: one JSON text per body, parsed here
  const docs = Array.from({ length: perIndex }, (_, k) => ({ ...JSON.parse(row((i * 7919 + k) % ends.length)), id: k + 1 }));
  const engine = engineFactory.create(toEngineSettings(settings));
  engine.addDocuments(docs, 'id');
  engine.compact();
  return {
    engine,
    version: 0,
    settings,
    settingsKey: settingsKey(settings),
    changedSinceSnapshot: 0,
    fromSnapshot: false,
  };
});
