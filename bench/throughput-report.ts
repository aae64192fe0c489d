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
  const by = (id: string) => {
    const r = results.find((x) => x.id === id);
    if (r?.errors) failed.add(id);
    return r;
  };
  const failed = new Set<string>();
  const rows: [string, string, string | undefined, string, boolean | undefined][] = [];
  const row = (what: string, before: string, now: string | undefined, target: string, met: boolean | undefined) => rows.push([what, before, now, target, met]);
  const single = by('single');
  const fed = by('fed');
  const direct = by('direct');
  const rest = by('rest');
  const restGw = by('rest-gw-keys');
  const p99Floor = (rps: number) => `> ${((concurrency / rps) * 1000).toFixed(0)}`;
  row('single-subgraph via gateway, req/s', `${BEFORE.singleRps}`, single?.st.rps.toFixed(0), '≥ 1000', single && single.st.rps >= 1000);
  row('federated via gateway, req/s', `${BEFORE.fedRps}`, fed?.st.rps.toFixed(0), '≥ 500', fed && fed.st.rps >= 500);
  row('p99 single-subgraph via gateway, ms', p99Floor(BEFORE.singleRps), single?.st.p99.toFixed(1), '< 50', single && single.st.p99 < 50);
  row('p99 federated via gateway, ms', p99Floor(BEFORE.fedRps), fed?.st.p99.toFixed(1), '< 50', fed && fed.st.p99 < 50);
  const ratio = rest && restGw ? rest.st.rps / restGw.st.rps : undefined;
  row('REST / gateway, same operation and keys', `${BEFORE.restRatio.toFixed(2)}×`, ratio === undefined ? undefined : `${ratio.toFixed(2)}×`, '≥ 0.90×', ratio === undefined ? undefined : ratio >= 0.9);
  row('p99 REST bridge list, ms', '—', rest?.st.p99.toFixed(1), '< 50', rest && rest.st.p99 < 50);
  row('direct to catalog, CPU per request, ms', `${BEFORE.singleCpu}`, direct?.cpu.toFixed(2), '≤ 1', direct && direct.cpu <= 1);
  row('federated, the stack\'s CPU per request, ms', `${BEFORE.fedCpu}`, fed?.cpu.toFixed(2), '(no target)', undefined);
  console.log(`# targets at ${concurrency} concurrent clients: before (2026-11-24, before the throughput work) → this run`);
  if (failed.size) console.log(`  scenarios with failed requests (no target counts as met): ${[...failed].join(', ')}`);
  for (const [what, before, now, target, met] of rows) {
    if (now === undefined) continue;
    console.log(`  ${what.padEnd(44)} ${before.padStart(6)} → ${now.padStart(7)}   target ${target.padEnd(11)} ${met === undefined ? '' : met && !failed.size ? 'met' : 'NOT MET'}`);
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
