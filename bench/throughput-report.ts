// What bench/throughput.bench.ts prints after its scenarios: issue 16's targets with the figures
// before the work beside this run's, and, after a profiled run (BENCH_PROFILE), the profile's top
// items before and after. "Before" is what was measured on 2026-11-24 before the throughput work
// (the issue's own figures, and the first profile in docs/performance.md, "Where the time went
// (before)"); it is fixed here so every run prints it beside its own.
import type { Stats } from './stats.js';
import { profileFiles, readProfile, topShares } from './profile-read.js';

export interface ScenarioResult {
  id: string;
  label: string;
  st: Stats;
  /** the stack's CPU per request, ms */
  cpu: number;
  /** failed requests (a 429, a timeout): a scenario with any meets no target */
  errors: number;
}

/** The figures before the work. 16 clients over a mean latency give the rate (Little's law), so a rate bounds the p99 from below. */
const BEFORE = {
  singleRps: 230,
  fedRps: 190,
  /** subgraph CPU per request of the light single-subgraph and federated queries, ms */
  singleCpu: 4.5,
  fedCpu: 8,
  /** REST / gateway, same operation and keys: first measured 2026-11-24 23:07 (docs/performance.md) */
  restRatio: 0.71,
};

/** Self time by package, % of busy time: the stack in one process through the loader, direct-to-catalog and federated scenarios. */
const BEFORE_PROFILE: [string, number][] = [
  ['(garbage collector)', 20.1],
  ['@mikro-orm/core', 17.8],
  ['node internals', 15.9],
  ['@mikro-orm/sql', 7.0],
  ['@apollo/server', 3.9],
  ['graphql', 3.8],
  ['pg', 3.6],
  ['pg-protocol', 2.2],
  ['pg-pool', 1.4],
  ['type-graphql', 0.5],
];

/** One line a target: before → this run, the target, met or not (a scenario not run prints nothing). */
export function printTargets(results: ScenarioResult[], concurrency: number): void {
  const by = (id: string) => results.find((r) => r.id === id);
  const single = by('single');
  const fed = by('fed');
  const cached = by('fed-cached');
  const registered = by('fed-registered');
  const cachedWrk = by('fed-cached-wrk');
  const replicasWrk = by('fed-cached-replicas-wrk');
  const direct = by('direct');
  const rest = by('rest');
  const restGw = by('rest-gw-keys');
  const p99Floor = (rps: number) => `> ${((concurrency / rps) * 1000).toFixed(0)}`;
  const ratio = rest && restGw ? rest.st.rps / restGw.st.rps : undefined;
  /** what: the figure; from: the scenarios it is read from (all must have run); met: undefined without a target */
  const rows: { what: string; before: string; from: (ScenarioResult | undefined)[]; now: () => string; target: string; met?: () => boolean }[] = [
    { what: 'single-subgraph via gateway, req/s', before: `${BEFORE.singleRps}`, from: [single], now: () => single!.st.rps.toFixed(0), target: '≥ 1000', met: () => single!.st.rps >= 1000 },
    { what: 'federated via gateway, req/s', before: `${BEFORE.fedRps}`, from: [fed], now: () => fed!.st.rps.toFixed(0), target: '≥ 500', met: () => fed!.st.rps >= 500 },
    { what: 'p99 single-subgraph via gateway, ms', before: p99Floor(BEFORE.singleRps), from: [single], now: () => single!.st.p99.toFixed(1), target: '< 50', met: () => single!.st.p99 < 50 },
    { what: 'p99 federated via gateway, ms', before: p99Floor(BEFORE.fedRps), from: [fed], now: () => fed!.st.p99.toFixed(1), target: '< 50', met: () => fed!.st.p99 < 50 },
    { what: 'REST / gateway, same operation and keys', before: `${BEFORE.restRatio.toFixed(2)}×`, from: [rest, restGw], now: () => `${ratio!.toFixed(2)}×`, target: '≥ 0.90×', met: () => ratio! >= 0.9 },
    { what: 'p99 REST bridge list, ms', before: '—', from: [rest], now: () => rest!.st.p99.toFixed(1), target: '< 50', met: () => rest!.st.p99 < 50 },
    { what: 'direct to catalog, CPU per request, ms', before: `${BEFORE.singleCpu}`, from: [direct], now: () => direct!.cpu.toFixed(2), target: '≤ 1', met: () => direct!.cpu <= 1 },
    { what: "federated, the stack's CPU per request, ms", before: `${BEFORE.fedCpu}`, from: [fed], now: () => fed!.cpu.toFixed(2), target: '(no target)' },
    { what: 'federated via gateway, registered id, req/s', before: `${BEFORE.fedRps}`, from: [registered], now: () => registered!.st.rps.toFixed(0), target: '(no target)' },
    { what: 'federated registered id, CPU per request, ms', before: `${BEFORE.fedCpu}`, from: [registered], now: () => registered!.cpu.toFixed(2), target: '(no target)' },
    { what: 'federated cache hit, CPU per request, ms', before: `${BEFORE.fedCpu}`, from: [cached], now: () => cached!.cpu.toFixed(2), target: '(no target)' },
    { what: 'federated via gateway, cache hit, req/s', before: `${BEFORE.fedRps}`, from: [cached], now: () => cached!.st.rps.toFixed(0), target: '≥ 10000', met: () => cached!.st.rps >= 10_000 },
    // the same target, the client no longer on the machine's CPU budget: wrk (C), one gateway process and
    // the production topology's two replicas on one port (SO_REUSEPORT; one process uses one core of two)
    { what: 'cache hit, wrk, one gateway, req/s', before: '—', from: [cachedWrk], now: () => cachedWrk!.st.rps.toFixed(0), target: '≥ 10000', met: () => cachedWrk!.st.rps >= 10_000 },
    { what: 'cache hit, wrk, 2 gateway replicas, req/s', before: '—', from: [replicasWrk], now: () => replicasWrk!.st.rps.toFixed(0), target: '≥ 10000', met: () => replicasWrk!.st.rps >= 10_000 },
  ];
  console.log(`# targets at ${concurrency} concurrent clients: before (2026-11-24, before the throughput work) → this run`);
  for (const r of rows) {
    if (r.from.some((x) => !x)) continue;
    // a figure read from a scenario with failed requests (a 429, a timeout) meets no target
    const failed = r.from.reduce((n, x) => n + x!.errors, 0);
    const verdict = !r.met ? '' : failed ? `NOT MET (${failed} failed requests)` : r.met() ? 'met' : 'NOT MET';
    console.log(`  ${r.what.padEnd(44)} ${r.before.padStart(6)} → ${r.now().padStart(7)}   target ${r.target.padEnd(11)} ${verdict}`);
  }
}

/** The profile's top packages before (BEFORE_PROFILE) and after (the profiles in `dir`), and the top functions after. */
export function printProfileBeforeAfter(dir: string, scenarios: string, top = 12): void {
  for (const file of profileFiles(dir)) {
    const s = readProfile(file);
    const unit = s.kind === 'cpu' ? 'self time' : 'bytes allocated';
    console.log(`# profile's top items (${unit} by package, % of busy): before (2026-11-24, loader build, direct + federated) → after (${file}, ${scenarios})`);
    if (s.kind === 'cpu') {
      const after = new Map(topShares(s.byArea, s.busy, Infinity));
      const names = [...new Set([...BEFORE_PROFILE.map(([a]) => a), ...topShares(s.byArea, s.busy, top).map(([a]) => a)])];
      const before = new Map(BEFORE_PROFILE);
      const cell = (x: number | undefined) => (x === undefined ? '     —' : `${x.toFixed(1).padStart(5)} %`);
      for (const a of names.sort((x, y) => (after.get(y) ?? 0) - (after.get(x) ?? 0))) console.log(`  ${a.padEnd(28)} ${cell(before.get(a))} → ${cell(after.get(a))}`);
    } else {
      for (const [a, x] of topShares(s.byArea, s.total, top)) console.log(`  ${a.padEnd(28)} ${x.toFixed(1).padStart(5)} %`);
    }
    console.log(`# top functions after (${unit})`);
    for (const [f, x] of topShares(s.byFn, s.busy, top)) console.log(`  ${x.toFixed(1).padStart(5)} %  ${f}`);
  }
}
