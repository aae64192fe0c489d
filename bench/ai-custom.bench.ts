// AI II through the REST bridge: custom classifiers, recommendations and prompt rendering.
// Quality: a classifier trained on real Debian package descriptions (6 sections, held-out accuracy
// from the training result); hit rate@10 of the recommender on a held-out split of the TED-derived
// event log (bench/data/ted-sessions.ts) against a popularity baseline. Speed: p50 of classify,
// recommendations with ~100,000 events stored, prompt render; the model refresh times.
// Run: BENCH_PORT_BASE=22600 DATABASE_URL=postgres://… npm run bench:ai-custom
// BENCH_ONLY=recs (or classifier, render; comma-separated) runs only those sections.
import { createGunzip } from 'node:zlib';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { AI_BENCH_SECRET, aiBenchEnv, aiBenchTenant } from './ai-tenant.js';
import { startStack } from '../scripts/stack.js';
import { eventWeight, decayed } from '../subgraphs/ai/recommendations/recommendation.rules.js';
import { tedSessions } from './data/ted-sessions.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential, summarize } from './stats.js';

const base = Number(process.env.BENCH_PORT_BASE ?? 22600);
const N = Number(process.env.BENCH_N ?? 100);
const USERS = Number(process.env.BENCH_REC_USERS ?? 7700);
const secret = AI_BENCH_SECRET;
const only = new Set((process.env.BENCH_ONLY ?? 'classifier,render,recs').split(',').map((x) => x.trim()));
/** how long the model may take to hold every stored event before the bench fails */
const REFRESH_TIMEOUT_MS = Number(process.env.BENCH_REFRESH_TIMEOUT_MS ?? 15 * 60_000);
const db = await scratchDatabase('aicustom');
const env = aiBenchEnv(db.url, stackPorts(base), 'bench-ai-custom');
const stack = await startStack(loadConfig(env), createLogger({}, 'error'));
const url = stack.rest.url;
const gatewayHealth = stack.gateway.url.replace(/\/graphql$/, '/health/detailed');
const { call, doc, headers, appId } = await aiBenchTenant(url, gatewayHealth, secret, 'benchc', 3);
const sql = new pg.Client({ connectionString: db.url });
await sql.connect();

// ---------------------------------------------------------------- custom classifier (Debian sections)
if (only.has('classifier')) {
  const SECTIONS = ['games', 'science', 'sound', 'graphics', 'fonts', 'net'];
  const PER = 300;
  const bySection = new Map<string, string[]>(SECTIONS.map((s) => [s, []]));
  for await (const line of createInterface({ input: createReadStream(resolve(process.env.DATASETS_DIR ?? resolve(import.meta.dirname, '..', '..', 'shared', 'datasets'), 'debian-packages.jsonl.gz')).pipe(createGunzip()) })) {
    const p = JSON.parse(line);
    const list = bySection.get(p.section);
    if (list && list.length < PER + 20) list.push(`${p.summary}. ${String(p.description ?? '').slice(0, 300)}`);
  }
  const examples = SECTIONS.flatMap((s) => bySection.get(s)!.slice(0, PER).map((text) => ({ text, label: s })));
  const probes = SECTIONS.flatMap((s) => bySection.get(s)!.slice(PER));
  const clf = await call('POST', '/ai/v1/classifiers', headers, doc('classifiers', { name: 'debian sections', labels: SECTIONS }));
  const trainStart = performance.now();
  const tr = await call('POST', `/ai/v1/classifiers/${clf.data.id}/train`, headers, doc('training_data', { examples }));
  let training: any;
  for (;;) {
    training = (await call('GET', `/ai/v1/trainings/${tr.data.id}`, headers)).data.attributes;
    if (training.status === 'succeeded' || training.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`classifier: ${examples.length} Debian package descriptions, ${SECTIONS.length} sections (${SECTIONS.join(', ')}); training job ${(performance.now() - trainStart).toFixed(0)} ms`);
  console.log(`  held-out accuracy ${(training.accuracy * 100).toFixed(1)} % on ${training.held_out_examples} examples (trained on ${training.train_examples}); majority class would be ${(100 / SECTIONS.length).toFixed(1)} %`);
  let right = 0;
  for (const [i, text] of probes.entries()) if ((await call('POST', `/ai/v1/classifiers/${clf.data.id}/classify`, headers, doc('classification_requests', { text }))).data.attributes.predictions[0].label === SECTIONS[Math.floor(i / 20)]) right++;
  console.log(`  unseen packages (20 per section, beyond the training set): ${((right / probes.length) * 100).toFixed(1)} %`);
  let pi = 0;
  console.log(fmt('POST classify (trained custom classifier)', await sequential(N, 5, () => call('POST', `/ai/v1/classifiers/${clf.data.id}/classify`, headers, doc('classification_requests', { text: probes[pi++ % probes.length] })))));
}

// ---------------------------------------------------------------- prompt render
if (only.has('render')) {
  const prompt = await call('POST', '/prompts', headers, doc('prompts', { name: 'bench', content: 'Hello {{user.name}} <{{user.emails[0]}}>\nSteps:\n{{steps|field:title|numbered}}\nTags: {{tags|join:, }} ({{tags|length}})\n{{notes|bullets}}' }));
  const placeholders = { user: { name: 'Ada', emails: ['ada@example.com'] }, steps: Array.from({ length: 10 }, (_, i) => ({ title: `Step ${i + 1}` })), tags: ['a', 'b', 'c'], notes: ['one', 'two'] };
  console.log(fmt('POST /prompts/:id/render', await sequential(N, 5, () => call('POST', `/prompts/${prompt.data.id}/render`, headers, doc('rendered_prompts', { placeholders })))));
}

// ---------------------------------------------------------------- recommendations
if (only.has('recs')) await recommendationsSection();

await sql.end();
await stack.stop();
await db.drop();
process.exit(process.exitCode ?? 0);

/** The recommendations section: load the TED-derived log, build the model, check it, measure. */
async function recommendationsSection(): Promise<void> {
  const { events, heldOut } = tedSessions(USERS);
  const held = new Set([...heldOut.entries()].map(([u, i]) => `${u}\u0000${i}`));
  const trainEvents = events.filter((e) => !held.has(`${e.user}\u0000${e.item}`));
  // the train events go in through the same table as the REST call writes (bulk, for time)
  const rows = trainEvents.map((e) => [appId, 'live', e.user, e.item, e.type, eventWeight(e.type), e.at.toISOString(), JSON.stringify(e.metadata), new Date().toISOString()]);
  const loadStart = performance.now();
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await sql.query(
      `insert into ai.rec_events (app_id, environment, user_id, item_id, event_type, weight, occurred_at, metadata, created_at)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::timestamptz[], $8::jsonb[], $9::timestamptz[])`,
      Array.from({ length: 9 }, (_, c) => chunk.map((r) => r[c])),
    );
  }
  const loaded = performance.now();
  // one event through REST enqueues the refresh job; it reads every stored event
  await call('POST', '/ai/v1/recommendations/events', headers, doc('recommendation_events', { user_id: 'bench-trigger', event_type: 'view', item_id: trainEvents[0].item }));
  const built = await waitForModel('the model built from nothing');
  console.log(`recommendations: ${built.stored} events of ${USERS} viewers stored (insert ${(loaded - loadStart).toFixed(0)} ms; model built ${(performance.now() - loaded).toFixed(0)} ms after, including the refresh delay of 1 s; version ${built.version})`);
  const pairs = (await sql.query('select count(*)::int n from ai.rec_pairs where app_id = $1', [appId])).rows[0].n;
  const nb = (await sql.query('select count(*)::int n from ai.rec_neighbors where app_id = $1', [appId])).rows[0].n;
  console.log(`  model: ${pairs} item pairs, ${nb} neighbour rows`);

  // incremental: 100 events through REST, time until the model holds them
  const incStart = performance.now();
  for (let i = 0; i < 100; i++) await call('POST', '/ai/v1/recommendations/events', headers, doc('recommendation_events', { user_id: `late-${i % 10}`, event_type: 'view', item_id: trainEvents[i * 7].item }));
  const inc = await waitForModel('100 events via REST');
  console.log(`  100 new events via REST → in the model after ${(performance.now() - incStart).toFixed(0)} ms (includes the 100 calls and the refresh delay of 1 s; version ${inc.version})`);

  // hit rate@10 on the held-out last views: CF (through REST) vs popularity (same decay, in this process)
  const pop = new Map<string, number>();
  for (const e of trainEvents) pop.set(e.item, (pop.get(e.item) ?? 0) + decayed(eventWeight(e.type), e.at));
  const popular = [...pop.entries()].sort((a, b) => b[1] - a[1]).map(([i]) => i);
  const seen = new Map<string, Set<string>>();
  for (const e of trainEvents) seen.set(e.user, (seen.get(e.user) ?? new Set()).add(e.item));
  const sample = [...heldOut.entries()].filter((_, i) => i % Math.max(1, Math.floor(heldOut.size / 1000)) === 0);
  let hits = 0;
  let popHits = 0;
  const samples: number[] = [];
  for (const [user, item] of sample) {
    const t = performance.now();
    const r = await call('POST', '/ai/v1/recommendations', headers, doc('recommendation_requests', { user_id: user, limit: 10 }));
    samples.push(performance.now() - t);
    if (r.data.attributes.recommendations.some((x: any) => x.item_id === item)) hits++;
    const mine = seen.get(user) ?? new Set();
    if (popular.filter((i) => !mine.has(i)).slice(0, 10).includes(item)) popHits++;
  }
  console.log(`  hit rate@10 on ${sample.length} held-out viewers: item-item CF ${((hits / sample.length) * 100).toFixed(1)} %, popularity ${((popHits / sample.length) * 100).toFixed(1)} % (${pop.size} items)`);
  console.log(fmt(`POST /ai/v1/recommendations (user, ${inc.stored} events)`, summarize(samples, samples.reduce((a, b) => a + b, 0))));
  let ui = 0;
  const users = [...heldOut.keys()];
  console.log(fmt(`POST /ai/v1/recommendations (item)`, await sequential(N, 5, () => call('POST', '/ai/v1/recommendations', headers, doc('recommendation_requests', { item_id: trainEvents[(ui++ * 13) % trainEvents.length].item, limit: 10 })))));
  console.log(fmt(`POST /ai/v1/recommendations (user, filter)`, await sequential(N, 5, () => call('POST', '/ai/v1/recommendations', headers, doc('recommendation_requests', { user_id: users[ui++ % users.length], limit: 10, filters: { duration_range: [1, 2] } })))));
}

/**
 * Waits until the model's watermark reaches the newest stored event (fails loudly after
 * REFRESH_TIMEOUT_MS), then says whether the model holds every event: its event count against the
 * table's, and the (user, item) pairs of the log without a strength row.
 */
async function waitForModel(what: string): Promise<{ stored: number; version: number }> {
  const newest = (await sql.query('select max(id)::text as id, count(*)::int as n from ai.rec_events where app_id = $1', [appId])).rows[0];
  const model = async () => (await sql.query('select version, last_event_id::text as last, events from ai.rec_models where app_id = $1', [appId])).rows[0] as { version: number; last: string; events: number } | undefined;
  const deadline = Date.now() + REFRESH_TIMEOUT_MS;
  let m = await model();
  while (!m || BigInt(m.last) < BigInt(newest.id)) {
    if (Date.now() > deadline) {
      const jobs = (await sql.query(`select id, status, attempts, last_error, started_at, finished_at from ai.jobs where kind = 'ai.recommendations.refresh' order by id`)).rows;
      throw new Error(`${what}: the model's watermark did not reach event ${newest.id} within ${REFRESH_TIMEOUT_MS} ms (model ${JSON.stringify(m)}; refresh jobs ${JSON.stringify(jobs)})`);
    }
    await new Promise((r) => setTimeout(r, 100));
    m = await model();
  }
  const missing = (await sql.query(
    `select count(*)::int as pairs, coalesce(min(e.id), 0)::text as min_id, coalesce(max(e.id), 0)::text as max_id from ai.rec_events e
      where e.app_id = $1 and e.weight > 0 and not exists (select 1 from ai.rec_user_items u where u.app_id = e.app_id and u.environment = e.environment and u.user_id = e.user_id and u.item_id = e.item_id)`,
    [appId],
  )).rows[0];
  const whole = m.events === newest.n && missing.pairs === 0;
  console.log(`  ${what}: model version ${m.version}, watermark ${m.last}; model holds every event: ${whole ? 'yes' : 'NO'} (${m.events} of ${newest.n} events${missing.pairs ? `; events without a strength row: ${missing.pairs}, ids ${missing.min_id}..${missing.max_id}` : ''})`);
  if (!whole) process.exitCode = 1;
  return { stored: newest.n, version: m.version };
}
