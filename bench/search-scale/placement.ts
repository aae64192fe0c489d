// npm run bench:search-scale, parts (b) and (c): indexes placed across three search processes
// (docs/search.md, "Placement"), each a `subgraphs/search/main.ts` on loopback with SEARCH_NODE_URL,
// on a scratch database, called as the gateway would (signed tenant headers). Every figure is printed
// against its target with the load average at the time.
//  (b) BENCH_INDEXES (10,000) indexes of BENCH_INDEX_DOCS (1,000) Debian packages, over BENCH_APPS (100)
//      tenants: RSS per node against SEARCH_MEMORY_BUDGET_MB, the first search of each cold index
//      (p50 / p95 / max, target ≤ 1 s), the spread of searches and loaded engines over the nodes
//      (engines on at most R nodes);
//  (c) BENCH_CLIENTS (8) clients search BENCH_HOT (300) indexes through the two nodes that stay (the
//      balancer has taken the third out) while the third is killed with SIGKILL: failed searches by
//      kind (only 503 with Retry-After allowed, ≤ 2 s of them), time until every index the dead node
//      held answers elsewhere, and until each is loaded on R live nodes again.
// Env besides the above: BENCH_PORT_BASE (24500; the nodes take +100..+102), BENCH_LOAD_S (20),
// SEARCH_MEMORY_BUDGET_MB (512), DATABASE_URL (the server of the scratch database), BENCH_COMPILED=1
// (the nodes run the production build, dist/ from `npm run build`, with NODE_ENV=production, as a
// deployment does; default: the TypeScript sources under the development loader).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { requestJson } from '../../lib/http-client.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../lib/tenant.js';
import { holdersOf } from '../../subgraphs/search/placement/ring.rules.js';
import { nodeFlags } from '../../scripts/node-flags.js';
import { benchStackEnv, peakRssMiB, processTree, rssMiB, scratchDatabase, waitUntilUp } from '../harness.js';
import { readDataset } from '../../scripts/datasets.js';
import { makeQueries } from '../search-corpus.js';
import { summarize } from '../stats.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const INDEXES = Number(process.env.BENCH_INDEXES ?? 10_000);
const PER_INDEX = Number(process.env.BENCH_INDEX_DOCS ?? 1000);
const APPS = Math.min(INDEXES, Number(process.env.BENCH_APPS ?? 100));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const HOT = Math.min(INDEXES, Number(process.env.BENCH_HOT ?? 300));
const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 20);
const BUDGET_MB = Number(process.env.SEARCH_MEMORY_BUDGET_MB ?? 512);
const R = 2;
const base = Number(process.env.BENCH_PORT_BASE ?? 24500) + 100;
const TARGETS = { coldFirstMs: 1000, failedS: 2 };
const COMPILED = process.env.BENCH_COMPILED === '1';

const load = () => `load ${loadavg()[0].toFixed(2)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const say = (line: string) => console.log(`${line}  [${load()}]`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  id: string;
  port: number;
  child: ChildProcess;
}

export async function placementParts(parts: Set<string>): Promise<void> {
  if (!parts.has('b') && !parts.has('c')) return;
  const corpus = readDataset('debian-packages.jsonl')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  console.log(`# bench/search-scale/placement.ts ${new Date().toISOString()}: ${INDEXES} indexes × ${PER_INDEX} documents over 3 search nodes (R = ${R}), ${APPS} tenants, budget ${BUDGET_MB} MiB per node, ${COMPILED ? 'production build' : 'TypeScript under the development loader'}, ${load()}`);
  const scratch = await scratchDatabase('placement');
  const env = benchStackEnv('search-placement', base, scratch.url, {
    SINGLE_PROCESS: '1',
    MIGRATE_ON_START: '1',
    REDIS_URL: '',
    SEARCH_DEFAULT_PLAN: 'enterprise',
    SEARCH_MEMORY_BUDGET_MB: String(BUDGET_MB),
    SEARCH_POLL_MS: '100',
    // as `npm start` and the image run (README, Environment)
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
  });
  const secret = env.INTERNAL_SECRET!;
  const nodes: Node[] = [];
  const start = async (i: number): Promise<Node> => {
    const port = base + i;
    const id = `bench-node-${i}`;
    const entry = COMPILED ? [resolve(ROOT, 'dist/subgraphs/search/main.js')] : ['--import', '@swc-node/register/esm-register', resolve(ROOT, 'subgraphs/search/main.ts')];
    const child = spawn(process.execPath, [...nodeFlags(ROOT), ...entry], {
      cwd: ROOT,
      env: { ...env, ...(COMPILED ? { NODE_ENV: 'production' } : {}), SEARCH_PORT: String(port), SEARCH_NODE_URL: `http://127.0.0.1:${port}`, SEARCH_NODE_ID: id, SEARCH_REPLICAS: String(R) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilUp(`http://127.0.0.1:${port}/health/ready`, child, id);
    return { id, port, child };
  };
  const stopAll = () => nodes.forEach((n) => n.child.exitCode === null && n.child.signalCode === null && n.child.kill('SIGTERM'));
  process.on('exit', () => nodes.forEach((n) => n.child.exitCode === null && n.child.kill('SIGKILL')));
  const db = new pg.Client({ connectionString: scratch.url });
  try {
    for (let i = 0; i < 3; i++) nodes.push(await start(i));
    await db.connect();
    const rssIdle = nodes.map((n) => processTree(n.child.pid!).reduce((s, p) => s + rssMiB(p), 0));

    const apps: TenantContext[] = Array.from({ length: APPS }, (_, k) => ({ kind: 'key', requestId: '', scopes: ['search:read', 'search:write'], appId: `app_place_${k}_${process.pid}`, environment: 'live', plan: 'enterprise' }));
    const tenantOf = (i: number) => apps[i % APPS];
    const uidOf = (i: number) => `place${i}`;
    const gql = async (node: Node, tenant: TenantContext, query: string, variables: Record<string, unknown>) => {
      const body = JSON.stringify({ query, variables });
      const header = signTenantContext({ ...tenant, requestId: randomUUID() }, secret, { audience: 'search', body });
      return requestJson('POST', `http://127.0.0.1:${node.port}/graphql`, { 'content-type': 'application/json', [TENANT_HEADER]: header }, body, 60_000);
    };
    const must = async (node: Node, tenant: TenantContext, query: string, variables: Record<string, unknown>) => {
      const r = await gql(node, tenant, query, variables);
      const parsed = JSON.parse(r.text);
      if (r.status !== 200 || parsed.errors) throw new Error(`${r.status} ${r.text.slice(0, 300)}`);
      return parsed.data;
    };
    const nodeStats = async (n: Node) => {
      const body = '{}';
      const header = signTenantContext({ kind: 'service', requestId: randomUUID(), scopes: [] }, secret, { audience: 'search', body });
      const r = await requestJson('POST', `http://127.0.0.1:${n.port}/internal/search/loaded`, { 'content-type': 'application/json', [TENANT_HEADER]: header }, body, 10_000);
      return JSON.parse(r.text).ok as { indexIds: string[]; engines: { bytes: number; loaded: number; loads: number; unloads: number; queue: { waited: number }; memory?: { slackBytes: number; collections: number; pausedMs: number; restBytes: number } }; placement: { served: number; forwarded: number; forwardFailures: number; fallbacks: number; warmed: number; unloaded: number } };
    };
    const rss = (n: Node) => processTree(n.child.pid!).reduce((s, p) => s + rssMiB(p), 0);

    // ------------------------------------------------------------ indexes and documents (all nodes' workers)
    const settings = { searchableAttributes: ['name', 'summary', 'description', 'tags'], filterableAttributes: ['section', 'priority'] };
    const CREATE = `mutation($uid: String!, $s: JSONObject) { createIndex(input: { uid: $uid, primaryKey: "id", settings: $s }) { id } }`;
    const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        while (next < INDEXES) {
          const i = next++;
          const node = nodes[(i + w) % 3];
          await must(node, tenantOf(i), CREATE, { uid: uidOf(i), s: settings });
          const docs = Array.from({ length: PER_INDEX }, (_, k) => ({ ...corpus[(i * 7919 + k) % corpus.length], id: k + 1 }));
          await must(node, tenantOf(i), ADD, { uid: uidOf(i), docs });
          if (i % 500 === 499) console.log(`  ${i + 1} indexes posted, ${((performance.now() - t0) / 1000).toFixed(0)} s  [${load()}]`);
        }
      }),
    );
    for (;;) {
      const open = Number((await db.query(`select count(*) from search.tasks where status in ('enqueued', 'processing')`)).rows[0].count);
      if (!open) break;
      await sleep(250);
    }
    const failedTasks = Number((await db.query(`select count(*) from search.tasks where status = 'failed'`)).rows[0].count);
    say(`(b) indexing: ${INDEXES} indexes × ${PER_INDEX} documents in ${((performance.now() - t0) / 1000).toFixed(0)} s (${Math.round((INDEXES * PER_INDEX) / ((performance.now() - t0) / 1000))} docs/s over 3 workers), ${failedTasks} failed tasks`);
    const ids = new Map((await db.query(`select uid, id from search.indexes`)).rows.map((r) => [r.uid as string, r.id as string]));
    const ring = (await db.query(`select id, url from search.nodes order by id`)).rows as { id: string; url: string }[];

    // ------------------------------------------------------------ (b) first search of every cold index, through a random node
    const queries = makeQueries(corpus, 200);
    const SEARCH = `query($uid: String!, $q: String!) { searchIndex(indexUid: $uid, input: { query: $q, limit: 20, facets: ["section", "priority"] }) { estimatedTotalHits processingTimeMs } }`;
    const coldMs: number[] = [];
    let cold503 = 0;
    let order = Array.from({ length: INDEXES }, (_, i) => i);
    order = order.map((i) => [Math.random(), i]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const tc = performance.now();
    next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < order.length) {
          const i = order[next++];
          const node = nodes[Math.floor(Math.random() * 3)];
          const t = performance.now();
          for (;;) {
            const r = await gql(node, tenantOf(i), SEARCH, { uid: uidOf(i), q: queries[i % queries.length] });
            if (r.status === 200 && !JSON.parse(r.text).errors) break;
            if (!/SERVICE_UNAVAILABLE/.test(r.text)) throw new Error(`cold search: ${r.status} ${r.text.slice(0, 300)}`);
            cold503++;
            await sleep(200);
          }
          coldMs.push(performance.now() - t);
        }
      }),
    );
    const c = summarize(coldMs, performance.now() - tc);
    say(`(b) first search of a cold index (4 in flight): p50 ${c.p50.toFixed(0)} ms, p95 ${c.p95.toFixed(0)} ms, max ${Math.max(...coldMs).toFixed(0)} ms (target ≤ ${TARGETS.coldFirstMs}: ${verdict(c.p95 <= TARGETS.coldFirstMs)} at p95, ${verdict(Math.max(...coldMs) <= TARGETS.coldFirstMs)} at max); ${cold503} answers 503 meanwhile`);
    await sleep(12_000); // the grace period: engines a node no longer holds are unloaded
    const stats = await Promise.all(nodes.map(nodeStats));
    const perIndex = new Map<string, number>();
    for (const s of stats) for (const id of s.indexIds) perIndex.set(id, (perIndex.get(id) ?? 0) + 1);
    const overR = [...perIndex.values()].filter((n) => n > R).length;
    for (const [k, n] of nodes.entries()) {
      const s = stats[k];
      const m = rss(n);
      // the budget counts the engines (docs/search.md, "Memory"): RSS over the process at rest is what they cost
      const engines = m - rssIdle[k];
      say(
        `(b) ${n.id}: RSS ${m.toFixed(0)} MiB, ${rssIdle[k].toFixed(0)} MiB of it the process at rest, so ${engines.toFixed(0)} MiB for ${s.engines.loaded} engines (budget ${BUDGET_MB}: ${verdict(engines <= BUDGET_MB)}; ${(s.engines.bytes / 2 ** 20).toFixed(0)} MiB estimated); peak RSS ${peakRssMiB(n.child.pid!).toFixed(0)} MiB; searches served ${s.placement.served}, forwarded ${s.placement.forwarded}; loads ${s.engines.loads}, unloads ${s.engines.unloads}, ${s.engines.queue.waited} waited for a load slot; ${s.engines.memory ? `memory check: ${(s.engines.memory.slackBytes / 2 ** 20).toFixed(0)} MiB of slack taken off the budget after ${s.engines.memory.collections} collections, ${s.engines.memory.pausedMs} ms of event-loop pause in all (its rest, RSS at the first engine load: ${(s.engines.memory.restBytes / 2 ** 20).toFixed(0)} MiB)` : 'memory check off'}`,
      );
    }
    say(`(b) engines loaded per index: ${perIndex.size} indexes loaded somewhere, ${overR} on more than R = ${R} nodes (target 0: ${verdict(overR === 0)})`);

    if (!parts.has('c')) return;
    // ------------------------------------------------------------ (c) a node killed under search load
    const hot = order.slice(0, HOT);
    const victim = nodes[2];
    const survivors = nodes.slice(0, 2);
    const victimHeld = hot.filter((i) => holdersOf(ring, ids.get(uidOf(i))!, R).some((n) => n.id === victim.id));
    // the hot set warm on its holders first
    for (const i of hot) for (const n of nodes) await must(n, tenantOf(i), SEARCH, { uid: uidOf(i), q: 'lib' });
    const perSecond = new Map<number, { ok: number; unavailable: number; other: number }>();
    let killedAt = 0;
    let unavailableNoRetry = 0;
    const otherErrors: string[] = [];
    const loadStart = performance.now();
    let stopLoad = false;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stopLoad) {
        const k = Math.floor(Math.random() * 1e9);
        const i = hot[k % hot.length];
        const node = survivors[k % 2];
        const sent = performance.now();
        const sec = Math.floor((sent - loadStart) / 1000);
        const slot = perSecond.get(sec) ?? { ok: 0, unavailable: 0, other: 0 };
        perSecond.set(sec, slot);
        let r;
        try {
          r = await gql(node, tenantOf(i), SEARCH, { uid: uidOf(i), q: queries[k % queries.length] });
        } catch (e) {
          slot.other++;
          otherErrors.push((e as Error).message);
          continue;
        }
        const body = JSON.parse(r.text);
        if (r.status === 200 && !body.errors) {
          slot.ok++;
        } else if (body.errors?.[0]?.extensions?.code === 'SERVICE_UNAVAILABLE') {
          slot.unavailable++;
          if (!body.errors[0].extensions.meta?.retryAfterMs) unavailableNoRetry++;
        } else {
          slot.other++;
          otherErrors.push(`${r.status} ${r.text.slice(0, 200)}`);
        }
      }
    });
    await sleep(5000);
    killedAt = performance.now();
    victim.child.kill('SIGKILL');
    // beside the load: each index the dead node held, searched through a survivor until it answers
    const answeredAfter: number[] = [];
    let probeFailures = 0;
    let probed = 0;
    const probe = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (probed < victimHeld.length) {
          const j = probed++;
          const i = victimHeld[j];
          for (;;) {
            const r = await gql(survivors[j % 2], tenantOf(i), SEARCH, { uid: uidOf(i), q: 'lib' }).catch(() => undefined);
            if (r?.status === 200 && !JSON.parse(r.text).errors) break;
            probeFailures++;
            await sleep(100);
          }
          answeredAfter.push(performance.now() - killedAt);
        }
      }),
    );
    // until every index the dead node held is loaded on R live nodes again
    let restoredMs: number | undefined;
    let staleMs: number | undefined;
    while (performance.now() - killedAt < (LOAD_S - 5) * 1000 || restoredMs === undefined) {
      await sleep(250);
      if (staleMs === undefined && !(await db.query(`select 1 from search.nodes where id = $1 and heartbeat_at > now() - interval '5 seconds'`, [victim.id])).rowCount) staleMs = performance.now() - killedAt;
      if (restoredMs === undefined && staleMs !== undefined) {
        const loaded = await Promise.all(survivors.map(nodeStats));
        const copies = (id: string) => loaded.filter((s) => s.indexIds.includes(id)).length;
        if (victimHeld.every((i) => copies(ids.get(uidOf(i))!) >= R)) restoredMs = performance.now() - killedAt;
      }
      if (performance.now() - killedAt > 120_000) break;
    }
    stopLoad = true;
    await Promise.all([...clients, probe]);
    const seconds = [...perSecond.entries()].sort((a, b) => a[0] - b[0]);
    const total = seconds.reduce((s, [, v]) => ({ ok: s.ok + v.ok, unavailable: s.unavailable + v.unavailable, other: s.other + v.other }), { ok: 0, unavailable: 0, other: 0 });
    const failingSeconds = seconds.filter(([, v]) => v.unavailable + v.other > 0).length;
    say(`(c) under load (${CLIENTS} clients, ${HOT} hot indexes, through the 2 nodes that stay): ${total.ok} searches answered, ${total.unavailable} 503 (${unavailableNoRetry} without Retry-After), ${total.other} other failures (target: only 503 with Retry-After, ≤ ${TARGETS.failedS} s of them: ${verdict(total.other === 0 && unavailableNoRetry === 0 && failingSeconds <= TARGETS.failedS)}; ${failingSeconds} seconds with a failure)`);
    say(`(c) per second (ok/503/other): ${seconds.map(([s, v]) => `${s}:${v.ok}/${v.unavailable}/${v.other}`).join(' ')}`);
    if (otherErrors.length) console.log(`    first other failures: ${otherErrors.slice(0, 3).join(' | ')}`);
    say(
      `(c) the dead node's ${victimHeld.length} hot indexes, searched from the kill on (4 probes in flight, beside the load): the last answered ${Math.max(0, ...answeredAfter).toFixed(0)} ms after it, ${probeFailures} failed attempts; node seen dead ${staleMs === undefined ? 'never' : `after ${(staleMs / 1000).toFixed(1)} s`}; every one loaded on R = ${R} live nodes again ${restoredMs === undefined ? `not within the ${((performance.now() - killedAt) / 1000).toFixed(0)} s watched (a survivor whose budget is full does not warm the dead node's share: docs/search.md)` : `after ${(restoredMs / 1000).toFixed(1)} s`}`,
    );
  } finally {
    stopAll();
    await Promise.all(nodes.map((n) => (n.child.exitCode !== null || n.child.signalCode !== null ? undefined : new Promise((r) => n.child.once('exit', r)))));
    await db.end().catch(() => undefined);
    await scratch.drop();
  }
}
