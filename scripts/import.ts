// npm run import -- <file> (--index <uid> | --catalog) [--format json|ndjson|csv] [--batch 1000]
//   [--concurrency 2] [--primary-key id] [--app-id A --key K] [--rest URL] [--gateway URL] [--restart] [--json]
// Loads JSON, NDJSON or CSV (optionally .gz) through the public API: into a search index (batches
// of documents; progress from the taskEvents subscription, so a batch counts once the engine has
// indexed it), or into the catalogue (one POST /v1/products per record; a SKU already there counts
// as imported). A progress bar shows records/s and the ETA. Interrupted (Ctrl-C, a crash), it
// resumes where it stopped when run again: DATA_DIR/imports/ remembers how many leading records
// were confirmed. Credentials: --app-id/--key, else APP_ID/API_KEY, else DATA_DIR/seed.json.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCli } from './cli-args.js';
import { loadConfig } from '../lib/config.js';
import { doc, RestApi, subscriptions } from './api-client.js';
import { countRecords, formatOf, records } from './import-file.js';

const USAGE = `usage: npm run import -- <file> (--index <uid> | --catalog) [--format json|ndjson|csv] [--batch 1000]
  [--concurrency 2] [--primary-key id] [--app-id A --key K] [--rest URL] [--gateway URL] [--restart] [--json]
Loads a JSON array, NDJSON or CSV file (.gz too) into a search index or the catalogue; run again, it
resumes after the last confirmed record. Credentials: --app-id/--key, APP_ID/API_KEY, or npm run seed's.`;
const { values, positionals } = parseCli(USAGE, {
  allowPositionals: true,
  options: {
    index: { type: 'string' },
    catalog: { type: 'boolean', default: false },
    format: { type: 'string' },
    batch: { type: 'string', default: '1000' },
    concurrency: { type: 'string' },
    'primary-key': { type: 'string' },
    'app-id': { type: 'string' },
    key: { type: 'string' },
    rest: { type: 'string' },
    gateway: { type: 'string' },
    restart: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

const file = positionals[0] ? resolve(positionals[0]) : fail(`a file is required\n${USAGE}`);
if (!existsSync(file)) fail(`${file} does not exist`);
if (!!values.index === values.catalog) fail('give exactly one of --index <uid> and --catalog');
let format: ReturnType<typeof formatOf>;
try {
  format = formatOf(file, values.format);
} catch (e) {
  fail((e as Error).message);
}
const batchSize = Number(values.batch);
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) fail('--batch must be 1..10000 (the documents endpoint takes at most 10,000 a request)');
const concurrency = Number(values.concurrency ?? (values.catalog ? 4 : 2));
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) fail('--concurrency must be 1..32');

const cfg = loadConfig();
const seedFile = resolve(cfg.dataDir, 'seed.json');
const seed = existsSync(seedFile) ? (JSON.parse(readFileSync(seedFile, 'utf8')) as { appId?: string; secretKey?: string; rest?: string; gateway?: string }) : {};
const appId = values['app-id'] ?? process.env.APP_ID ?? seed.appId ?? fail('no credentials: pass --app-id and --key (or APP_ID and API_KEY, or run npm run seed first)');
const apiKey = values.key ?? process.env.API_KEY ?? seed.secretKey ?? fail('no API key: pass --key (or API_KEY)');
const restUrl = (values.rest ?? process.env.REST_URL ?? seed.rest ?? `http://${cfg.host}:${cfg.restPort}`).replace(/\/+$/, '');
const gatewayUrl = values.gateway ?? seed.gateway ?? cfg.gatewayUrl;
const headers = { 'x-app-id': appId, 'x-api-key': apiKey };
const api = new RestApi(restUrl, headers);
const target = values.catalog ? 'catalog' : `index:${values.index}`;

// ---------------------------------------------------------------------------------------------
// Where a previous run stopped: the number of leading records confirmed, for this file and target

interface State {
  file: string;
  target: string;
  size: number;
  mtimeMs: number;
  done: number;
  failed: number;
}
const stat = statSync(file);
const stateDir = resolve(cfg.dataDir, 'imports');
const stateId = createHash('sha1').update(`${file}\n${target}\n${appId}`).digest('hex').slice(0, 16);
const stateFile = resolve(stateDir, `${stateId}.json`);
const errorsFile = resolve(stateDir, `${stateId}.errors.ndjson`);
mkdirSync(stateDir, { recursive: true });
let state: State = { file, target, size: stat.size, mtimeMs: stat.mtimeMs, done: 0, failed: 0 };
if (existsSync(stateFile) && !values.restart) {
  const prev = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  if (prev.size !== stat.size || prev.mtimeMs !== stat.mtimeMs) fail(`${file} changed since the interrupted import (${stateFile}); pass --restart to start over`);
  state = prev;
}
const save = () => writeFileSync(stateFile, JSON.stringify(state) + '\n');

/** Completions may arrive out of order: `done` advances over the contiguous confirmed prefix. */
const confirmed = new Map<number, number>(); // start → count
function confirm(start: number, count: number): void {
  confirmed.set(start, count);
  while (confirmed.has(state.done)) {
    const n = confirmed.get(state.done)!;
    confirmed.delete(state.done);
    state.done += n;
  }
  save();
}

// ---------------------------------------------------------------------------------------------
// Progress: records/s over this run and the time left at that rate

const total = await countRecords(file, format);
const resumedAt = state.done;
const started = performance.now();
let lastDraw = 0;
function draw(force = false): void {
  if (values.json) return;
  const now = performance.now();
  // in place on a terminal; a line a second into a log
  if (!force && now - lastDraw < (process.stderr.isTTY ? 200 : 1000)) return;
  lastDraw = now;
  const doneNow = state.done - resumedAt;
  const rate = doneNow / Math.max(0.001, (now - started) / 1000);
  const left = total - state.done;
  const eta = rate > 0 ? `${Math.ceil(left / rate)} s` : '?';
  const width = 30;
  const filled = total ? Math.round((state.done / total) * width) : width;
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${state.done.toLocaleString('en')}/${total.toLocaleString('en')} ${total ? Math.floor((state.done / total) * 100) : 100}%  ${Math.round(rate).toLocaleString('en')} records/s  ETA ${eta}${state.failed ? `  ${state.failed} failed` : ''}`;
  process.stderr.write(process.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
}
if (resumedAt > 0 && !values.json) console.error(`resuming after ${resumedAt.toLocaleString('en')} records already imported (${stateFile})`);

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  if (!values.json) console.error('\ninterrupted: finishing the batches in flight (Ctrl-C again to quit now)');
});

// ---------------------------------------------------------------------------------------------
// Sending, at most `concurrency` batches unconfirmed at once

const inflight = new Set<Promise<void>>();
let fatal: Error | undefined;
async function throttle(): Promise<void> {
  while (inflight.size >= concurrency) await Promise.race(inflight);
}
function track(p: Promise<void>): void {
  const t = p.catch((e: Error) => void (fatal ??= e)).finally(() => inflight.delete(t));
  inflight.add(t);
}

async function importIndex(uid: string): Promise<void> {
  const index = await api.call('GET', `/search/v1/indexes/${encodeURIComponent(uid)}`);
  if (index.status === 404) {
    await api.expect('create index', 201, 'POST', '/search/v1/indexes', doc('indexes', { uid, ...(values['primary-key'] ? { primary_key: values['primary-key'] } : {}) }));
  } else if (index.status !== 200) throw new Error(`index ${uid}: HTTP ${index.status} ${JSON.stringify(index.body)}`);

  // Batches are confirmed by the task events of the subscription; a batch whose event has not come
  // within 5 s (events are not replayed after a reconnect) is confirmed by reading its task.
  const waiting = new Map<string, { start: number; count: number; settle: (e?: Error) => void; since: number }>();
  // an event may come before the POST that enqueued its task has answered
  const early = new Map<string, string>();
  const finish = (taskId: string, status: string, error?: unknown) => {
    const w = waiting.get(taskId);
    if (!w) {
      if (early.size < 10_000) early.set(taskId, status);
      return;
    }
    waiting.delete(taskId);
    if (status === 'succeeded') {
      confirm(w.start, w.count);
      draw();
      w.settle();
    } else w.settle(new Error(`batch of records ${w.start + 1}-${w.start + w.count}: task ${taskId} ${status}${error ? `: ${JSON.stringify(error)}` : ''}`));
  };
  const client = subscriptions(gatewayUrl, headers);
  const events = client.iterate<{ taskEvents: { taskId: string; status: string; indexUid: string } }>({ query: 'subscription { taskEvents { taskId status indexUid } }' });
  const listening = (async () => {
    for await (const e of events) {
      const ev = e.data?.taskEvents;
      if (ev && ['succeeded', 'failed', 'canceled'].includes(ev.status)) finish(ev.taskId, ev.status);
    }
  })().catch(() => undefined);
  const poll = setInterval(() => {
    for (const [taskId, w] of waiting) {
      if (Date.now() - w.since < 5000) continue;
      void api
        .call('GET', `/search/v1/tasks/${taskId}`)
        .then((r) => {
          const a = r.body?.data?.attributes;
          if (r.status === 200 && ['succeeded', 'failed', 'canceled'].includes(a?.status)) finish(taskId, a.status, a.error);
        })
        .catch(() => undefined); // asked again next second
    }
  }, 1000);
  try {
    let batch: Record<string, unknown>[] = [];
    let start = state.done;
    let i = 0;
    const send = async (docs: Record<string, unknown>[], from: number) => {
      await throttle();
      const body = doc('documents', { documents: docs, ...(values['primary-key'] ? { primary_key: values['primary-key'] } : {}) });
      track(
        (async () => {
          const task = (await api.expect(`records ${from + 1}-${from + docs.length}`, 202, 'POST', `/search/v1/indexes/${encodeURIComponent(uid)}/documents`, body)).data;
          await new Promise<void>((resolveDone, reject) => {
            waiting.set(task.id, { start: from, count: docs.length, since: Date.now(), settle: (e) => (e ? reject(e) : resolveDone()) });
            const status = early.get(task.id);
            if (status) {
              early.delete(task.id);
              finish(task.id, status);
            }
          });
        })(),
      );
    };
    for await (const r of records(file, format)) {
      if (i++ < state.done) continue;
      if (interrupted || fatal) break;
      batch.push(r);
      if (batch.length === batchSize) {
        await send(batch, start);
        start += batch.length;
        batch = [];
      }
    }
    if (batch.length && !interrupted && !fatal) await send(batch, start);
    while (inflight.size) await Promise.race(inflight);
  } finally {
    clearInterval(poll);
    await events.return?.();
    await client.dispose();
    await listening;
  }
}

async function importCatalog(): Promise<void> {
  let i = 0;
  for await (const r of records(file, format)) {
    const at = i++;
    if (at < state.done) continue;
    if (interrupted || fatal) break;
    await throttle();
    track(
      (async () => {
        for (;;) {
          const res = await api.call('POST', '/v1/products', doc('products', r));
          if (res.status === 429) {
            // POST /v1/products allows 100 a minute per key: wait as told
            const wait = Number(res.headers.get('retry-after')) || 5;
            await new Promise((w) => setTimeout(w, Math.min(60, wait) * 1000));
            continue;
          }
          const code = res.body?.errors?.[0]?.code as string | undefined;
          if (res.status !== 201 && code !== 'SKU_ALREADY_EXISTS') {
            if (res.status >= 500) throw new Error(`record ${at + 1}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
            state.failed++;
            appendFileSync(errorsFile, JSON.stringify({ record: at + 1, status: res.status, errors: res.body?.errors }) + '\n');
          }
          confirm(at, 1);
          draw();
          return;
        }
      })(),
    );
  }
  while (inflight.size) await Promise.race(inflight);
}

save();
draw(true);
try {
  if (values.index) await importIndex(values.index);
  else await importCatalog();
} catch (e) {
  fatal ??= e as Error;
}
draw(true);
if (!values.json && process.stderr.isTTY) process.stderr.write('\n');
const seconds = (performance.now() - started) / 1000;
const summary = { file, target, total, done: state.done, failed: state.failed, resumedAt, imported: state.done - resumedAt, seconds: Math.round(seconds * 10) / 10, complete: state.done === total, stateFile };
if (values.json) console.log(JSON.stringify(summary));
if (fatal) {
  console.error(`error: ${fatal.message}\n${state.done.toLocaleString('en')} of ${total.toLocaleString('en')} records imported; run the same command again to resume`);
  process.exit(1);
}
if (interrupted) {
  if (!values.json) console.error(`${state.done.toLocaleString('en')} of ${total.toLocaleString('en')} records imported; run the same command again to resume`);
  process.exit(130);
}
if (!values.json && summary.imported === 0 && resumedAt === total && total > 0) {
  console.error(`nothing to import: all ${total.toLocaleString('en')} records of ${file} were imported into ${values.index ? `index ${values.index}` : 'the catalogue'} by an earlier run (${stateFile}); pass --restart to send them again`);
} else if (!values.json) {
  console.error(`imported ${summary.imported.toLocaleString('en')} records into ${values.index ? `index ${values.index}` : 'the catalogue'} in ${summary.seconds} s${state.failed ? ` (${state.failed} refused, see ${errorsFile})` : ''}`);
}
