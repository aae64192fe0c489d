// The Debian corpus of the search benches (../shared/datasets/debian-packages.jsonl.gz, 63,666
// packages) and what the benches ask of it: the same ~200 queries (1–3 words, some with a typo, the
// last word often a prefix) and four filters every run, in the engine bench and the service bench.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { engineFactory, type Engine, type EngineSettings } from '../lib/search-engine/index.js';
import { mulberry32 } from '../lib/seeded-random.js';

// the larger data sets are not committed: DATASETS_DIR, else ../shared/datasets beside the checkout
export const DATA = process.env.DATASETS_DIR ? resolve(process.env.DATASETS_DIR) : resolve(import.meta.dirname, '..', '..', 'shared', 'datasets');
export const BATCH = 1000;

/** Deterministic PRNG: the same queries every run. */
export const rng = mulberry32;

export function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, performance.now() - t];
}

export function loadDebian(): Record<string, any>[] {
  const text = gunzipSync(readFileSync(resolve(DATA, 'debian-packages.jsonl.gz'))).toString('utf8');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** ~200 queries of 1-3 words from package summaries: some with a typo, the last word cut to a prefix. */
export function makeQueries(docs: Record<string, any>[], n: number): string[] {
  const r = rng(42);
  const out: string[] = [];
  while (out.length < n) {
    const words = String(docs[Math.floor(r() * docs.length)].summary ?? '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3);
    if (!words.length) continue;
    const k = 1 + Math.floor(r() * 3);
    const start = Math.floor(r() * Math.max(1, words.length - k + 1));
    const q = words.slice(start, start + k);
    if (r() < 0.3) {
      const i = Math.floor(r() * q.length);
      const w = q[i];
      if (w.length >= 5) {
        const p = 1 + Math.floor(r() * (w.length - 1));
        q[i] = w.slice(0, p) + w.slice(p + 1); // drop one letter (not the first)
      }
    }
    const last = q[q.length - 1];
    if (last.length > 4 && r() < 0.6) q[q.length - 1] = last.slice(0, 3 + Math.floor(r() * (last.length - 3)));
    out.push(q.join(' '));
  }
  return out;
}

export const FILTERS = ['installed_size_kb < 50000', 'priority = optional', 'section IN [libs, devel, utils, python, net]', 'NOT section = games AND installed_size_kb >= 100'];

export function indexDebian(docs: Record<string, any>[], settings: EngineSettings): { engine: Engine; batchMs: number[] } {
  const engine = engineFactory.create(settings);
  const batchMs: number[] = [];
  for (let i = 0; i < docs.length; i += BATCH) batchMs.push(time(() => engine.addDocuments(docs.slice(i, i + BATCH), 'id'))[1]);
  return { engine, batchMs };
}

