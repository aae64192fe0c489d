// temporary: profile the engine under the service's default request (not committed)
import { engineFactory, DEFAULT_SETTINGS, type EngineSettings } from '../subgraphs/search/engine/index.js';
import { FILTERS, loadDebian, makeQueries, indexDebian } from './search-corpus.js';
import { summarize, fmt } from './stats.js';
const docs = loadDebian();
const settings: EngineSettings = { ...DEFAULT_SETTINGS, searchableAttributes: ['name', 'summary', 'description', 'tags'], filterableAttributes: ['section', 'priority', 'installed_size_kb'], sortableAttributes: ['installed_size_kb'] };
const { engine } = indexDebian(docs, settings);
engine.compact();
const queries = makeQueries(docs, 300);
const variants: Record<string, Record<string, unknown>> = {
  defaults: { attributesToHighlight: ['*'], showMatchesPosition: true },
  plain: { attributesToHighlight: [], showMatchesPosition: false },
  highlightOnly: { attributesToHighlight: ['*'], showMatchesPosition: false },
  positionsOnly: { attributesToHighlight: [], showMatchesPosition: true },
};
for (let round = 0; round < 2; round++)
for (const [name, extra] of Object.entries(variants)) {
  const samples: number[] = [];
  const t0 = performance.now();
  let bytes = 0;
  queries.forEach((q, i) => {
    const t = performance.now();
    const r = engine.search({ query: q, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20, ...extra });
    samples.push(performance.now() - t);
    if (i < 20) bytes += JSON.stringify(r).length;
  });
  console.log(fmt(`${name} (${(bytes / 20 / 1024).toFixed(0)} KB)`, summarize(samples, performance.now() - t0)));
}
