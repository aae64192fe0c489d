// The restore drill's before-and-after picture (scripts/restore-drill.sh, docs/deploy.md):
//   record-answers <file>  on the running source stack: upload and publish a logo (an object in the
//                          store), then write a search answer, a product page and the logo's hash
//   record-counts <file>   the source database stopped, as it is dumped: every table's row count
//   verify-counts <file>   the restored database before anything starts on it: the same counts
//   verify-answers <file>  on the restored stack: the same answers and the same logo bytes
//   backup-objects <dir>   every object of the store (OBJECT_STORE, S3_*, DATA_DIR as the services
//                          read them) copied to files under <dir>, keys as paths
//   restore-objects <dir>  those files put back into the store (an empty bucket or data dir)
// A verify prints what differs and exits 1 when anything does. Reads DATABASE_URL, REST_PORT (or
// REST_URL) and DATA_DIR/seed.json (the seed's keys) as `npm run seed` wrote them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { loadConfig } from '../lib/config.js';
import type { S3Settings } from '../lib/object-store/s3.js';
import pg from 'pg';
import sharp from 'sharp';
import type { SeedSummary } from './seed-print.js';

type State = {
  counts: Record<string, number>;
  search: string[];
  products: string[];
  logo: { url: string; sha256: string };
};

const MODES = ['record-answers', 'record-counts', 'verify-counts', 'verify-answers', 'backup-objects', 'restore-objects'];
const [mode, file] = process.argv.slice(2);
if (!MODES.includes(mode) || !file) {
  process.stderr.write(`usage: restore-drill-state.ts ${MODES.join('|')} <file or dir>\n`);
  process.exit(1);
}

/** Every file under `dir`, as '/'-separated paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split(sep).join('/'))
    .sort();
}

/**
 * Copy the whole object store to `dir` (backup) or `dir` into it (restore). The local store is a
 * directory (DATA_DIR/objects); an S3 bucket is listed and copied object by object with its
 * content type kept (in `dir/.content-types.json`).
 */
async function copyObjects(direction: 'backup' | 'restore', dir: string): Promise<number> {
  const cfg = loadConfig();
  if (cfg.objectStore.kind !== 's3') {
    const root = resolve(cfg.dataDir, 'objects');
    const [from, to] = direction === 'backup' ? [root, dir] : [dir, root];
    const files = filesUnder(from);
    for (const f of files) {
      mkdirSync(dirname(join(to, f)), { recursive: true });
      writeFileSync(join(to, f), readFileSync(join(from, f)));
    }
    return files.length;
  }
  const s = cfg.objectStore as S3Settings;
  const client = new S3Client({ endpoint: s.endpoint, region: s.region, forcePathStyle: s.forcePathStyle, credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } });
  const typesFile = join(dir, '.content-types.json');
  if (direction === 'restore') {
    const types = JSON.parse(readFileSync(typesFile, 'utf8')) as Record<string, string | undefined>;
    const keys = filesUnder(dir).filter((f) => f !== '.content-types.json');
    for (const key of keys) await client.send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: readFileSync(join(dir, key)), ContentType: types[key] }));
    return keys.length;
  }
  const types: Record<string, string | undefined> = {};
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s.bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) {
      if (!o.Key) continue;
      const got = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: o.Key }));
      mkdirSync(dirname(join(dir, o.Key)), { recursive: true });
      writeFileSync(join(dir, o.Key), Buffer.from(await got.Body!.transformToByteArray()));
      types[o.Key] = got.ContentType;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  mkdirSync(dir, { recursive: true });
  writeFileSync(typesFile, JSON.stringify(types));
  return Object.keys(types).length;
}

if (mode === 'backup-objects' || mode === 'restore-objects') {
  const n = await copyObjects(mode === 'backup-objects' ? 'backup' : 'restore', resolve(file));
  console.log(`${mode === 'backup-objects' ? 'backed up' : 'restored'}: ${n} object(s)`);
  process.exit(0);
}
const rest = (process.env.REST_URL ?? `http://127.0.0.1:${process.env.REST_PORT ?? 8080}`).replace(/\/+$/, '');
const seedFile = resolve(process.env.DATA_DIR ?? '.data', 'seed.json');
const seed = (existsSync(seedFile) ? JSON.parse(readFileSync(seedFile, 'utf8')) : {}) as SeedSummary;
const keyHeaders = { 'X-App-Id': seed.appId, 'X-Api-Key': seed.secretKey, 'Content-Type': 'application/json' };
const adminHeaders = { Authorization: `Bearer ${seed.adminToken}`, 'X-Platform': seed.platform, 'Content-Type': 'application/json' };

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, any>> {
  const r = await fetch(`${rest}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: HTTP ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, any>;
}

/** Every table of every application schema with its row count. */
async function rowCounts(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const tables = await client.query<{ s: string; t: string }>(
      `select table_schema as s, table_name as t from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const out: Record<string, number> = {};
    for (const { s, t } of tables.rows) {
      const r = await client.query<{ n: string }>(`select count(*) as n from "${s}"."${t}"`);
      out[`${s}.${t}`] = Number(r.rows[0].n);
    }
    return out;
  } finally {
    await client.end();
  }
}

async function answers(): Promise<Pick<State, 'search' | 'products'>> {
  const search = await call('POST', `/search/v1/indexes/${seed.index}/search`, keyHeaders, { data: { type: 'search_queries', attributes: { query: 'harry potter', limit: 5 } } });
  const hits = (search.data?.attributes?.hits ?? search.data?.hits ?? search.hits ?? []) as { id?: string; _id?: string }[];
  const products = await call('GET', '/v1/products?page[size]=5', keyHeaders);
  return { search: hits.map((h) => String(h.id ?? h._id ?? JSON.stringify(h))), products: (products.data as { id: string }[]).map((p) => p.id) };
}

async function logoSha(url: string): Promise<string> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`GET ${url}: HTTP ${r.status}`);
  return createHash('sha256').update(Buffer.from(await r.arrayBuffer())).digest('hex');
}

const recorded = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Partial<State>;
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
function report(diffs: string[], ok: string): void {
  if (diffs.length) {
    console.log(`restore differs:\n  ${diffs.join('\n  ')}`);
    process.exit(1);
  }
  console.log(ok);
}

if (mode === 'record-answers') {
  // one object in the store, through the API: a logo uploaded to its presigned URL and published
  const png = await sharp({ create: { width: 7, height: 5, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer();
  const presign = await call('POST', `/accounts/${seed.account}/logo/presign`, adminHeaders);
  const put = await fetch(presign.data.attributes.upload_url as string, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: png });
  if (!put.ok) throw new Error(`PUT upload: HTTP ${put.status} ${await put.text()}`);
  const published = await call('POST', `/accounts/${seed.account}/logo/publish`, adminHeaders, { data: { type: 'logos', attributes: { upload_id: presign.data.id } } });
  const url = Object.values(published.data.attributes as Record<string, unknown>).find((v): v is string => typeof v === 'string' && v.includes('/logos/'));
  if (!url) throw new Error(`logo/publish answered no logo URL: ${JSON.stringify(published)}`);
  const state = { ...recorded, ...(await answers()), logo: { url, sha256: await logoSha(url) } };
  if (!state.search.length || !state.products.length) throw new Error(`the source answers no search hits or products: ${JSON.stringify(state)}`);
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
  console.log(`recorded: ${state.search.length} search hits, ${state.products.length} products, logo ${state.logo.sha256.slice(0, 12)}`);
} else if (mode === 'record-counts') {
  const counts = await rowCounts();
  writeFileSync(file, `${JSON.stringify({ ...recorded, counts }, null, 2)}\n`);
  console.log(`recorded: ${Object.keys(counts).length} tables, ${sum(counts)} rows`);
} else if (mode === 'verify-counts') {
  const before = recorded.counts ?? {};
  const after = await rowCounts();
  const diffs = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} rows backed up, ${after[t]} restored`);
  report(diffs, `verified: ${Object.keys(after).length} tables and ${sum(after)} rows as backed up`);
} else {
  const before = recorded as State;
  const after = { ...(await answers()), sha256: await logoSha(before.logo.url.replace(/^https?:\/\/[^/]+/, rest)) };
  const diffs: string[] = [];
  if (JSON.stringify(before.search) !== JSON.stringify(after.search)) diffs.push(`search "harry potter": ${before.search.join(',')} before, ${after.search.join(',')} after`);
  if (JSON.stringify(before.products) !== JSON.stringify(after.products)) diffs.push(`products: ${before.products.join(',')} before, ${after.products.join(',')} after`);
  if (before.logo.sha256 !== after.sha256) diffs.push(`logo bytes differ (${before.logo.sha256} → ${after.sha256})`);
  report(diffs, `verified: the same ${after.search.length} search hits and ${after.products.length} products, the logo's bytes`);
}
