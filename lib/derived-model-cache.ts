// Models the product derives from data in the repository (the moderation classifier trained on its
// labelled set), computed once and kept as a file keyed by a hash of everything they are derived
// from: the training data, the options, the source of the code that turns texts into features and
// trains, and the installed word vectors' fingerprint. A change to any of them gives another key,
// so a stale model is never read; the old file is simply not used again.
// The files live beside the word vectors in node_modules/.cache/ (regenerated with node_modules,
// never committed); DERIVED_MODELS_DIR moves them (a read-only node_modules in an image).
// Writing is best-effort: a read-only directory only costs the derivation at each start.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { packageDir } from './word-vectors.js';

/** The folder of derived models (`DERIVED_MODELS_DIR`, else node_modules/.cache/derived-models). */
export function derivedModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DERIVED_MODELS_DIR?.trim() || resolve(packageDir(), '..', '.cache', 'derived-models');
}

/** A short hex key over the given parts (strings, or files whose contents count). */
export function derivationKey(parts: ReadonlyArray<string | { file: string }>): string {
  const h = createHash('sha256');
  for (const p of parts) {
    const s = typeof p === 'string' ? p : readFileSync(p.file, 'utf8');
    h.update(String(s.length)).update(':').update(s);
  }
  return h.digest('hex').slice(0, 24);
}

export interface Derived<T> {
  value: T;
  /** whether it came from the file (false: derived now) */
  cached: boolean;
  file: string;
  /** why the file could not be written, when it could not */
  writeError?: string;
}

/**
 * The model `name` for `key`: read from `<dir>/<name>-<key>.json` when present, otherwise derived by
 * `derive` and written there (atomically: a temporary file renamed, so concurrent workers never read half a file).
 */
export async function derivedModel<T>(name: string, key: string, derive: () => Promise<T>, dir = derivedModelsDir()): Promise<Derived<T>> {
  const file = join(dir, `${name}-${key}.json`);
  try {
    return { value: JSON.parse(readFileSync(file, 'utf8')) as T, cached: true, file };
  } catch {
    // absent or unreadable: derive it
  }
  const value = await derive();
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}-${threadId}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
    return { value, cached: false, file };
  } catch (e) {
    return { value, cached: false, file, writeError: (e as Error).message };
  }
}
