// ELD large (eld 2.1.0, Apache-2.0) with its n-gram table read as JSON. The package ships the table
// as a 4.4 MB JavaScript object literal (src/ngrams/large.js); importing it costs ~390 MB of RSS per
// thread that imports it (V8 keeps the compiled literal beside the 245,000 objects it builds), while
// JSON.parse of the same data costs ~105 MB. So the table is converted once per machine into a
// derived model (lib/derived-model-cache.ts, keyed by the table file's content), in a short-lived
// thread whose memory goes when it ends, and each process parses the JSON into ELD's own detector
// (createEld from its languageDetector.js, the code eld/large runs): same data, same code, same answers.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { derivationKey, derivedModel } from '../../../lib/derived-model-cache.js';

/** What the detector answers (eld's LanguageResult, the part we read). */
export interface EldDetector {
  detect(text: string): { language: string };
  info(): { Languages: Record<string, string> };
}

interface NgramsData {
  type: string;
  languages: Record<string, string>;
  ngrams: Record<string, Record<string, number>>;
}

/** The installed eld package's folder (its exports map hides package.json from require.resolve). */
export function eldDir(): string {
  const dirs = createRequire(import.meta.url).resolve.paths('eld') ?? [];
  const found = dirs.map((d) => join(d, 'eld')).find((d) => existsSync(join(d, 'package.json')));
  if (!found) throw new Error('the eld package is not installed');
  return found;
}

/** ELD's large table as a parsed object, from the derived JSON (derived now when absent). */
export async function eldLargeData(dir = eldDir()): Promise<NgramsData> {
  const table = join(dir, 'src', 'ngrams', 'large.js');
  const key = derivationKey([{ file: table }, { file: join(dir, 'package.json') }]);
  return (await derivedModel('eld-large-ngrams', key, () => tableInThread(table))).value;
}

/** ELD's detector over its large table, loaded from JSON. */
export async function loadEldLarge(dir = eldDir()): Promise<EldDetector> {
  const data = await eldLargeData(dir);
  const { createEld } = (await import(pathToFileURL(join(dir, 'src', 'languageDetector.js')).href)) as { createEld(): { instance: EldDetector; loadData(d: NgramsData): unknown } };
  const { instance, loadData } = createEld();
  loadData(data);
  return instance;
}

/** Imports the table module in a thread of its own and hands back its data, so its ~390 MB leave with the thread. */
function tableInThread(table: string): Promise<NgramsData> {
  const code = `const { parentPort, workerData } = require('node:worker_threads');
import(workerData).then((m) => parentPort.postMessage(JSON.stringify(m.ngramsData)), (e) => parentPort.postMessage({ error: String(e) }));`;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: pathToFileURL(table).href });
    w.once('message', (m: string | { error: string }) => {
      void w.terminate();
      if (typeof m === 'string') resolve(JSON.parse(m) as NgramsData);
      else reject(new Error(`reading ELD's n-gram table failed: ${m.error}`));
    });
    w.once('error', reject);
  });
}
