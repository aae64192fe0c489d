// npm run bench:profile-summary -- <file.cpuprofile|file.heapprofile|dir> [top]: where a CPU profile's
// time went, as text: self time per package (node_modules/<pkg>, the project's own directories, node
// internals, GC, idle) and the top functions by self time. The flame-graph summary of
// docs/performance.md. An allocation profile (BENCH_PROFILE_KIND=heap) the same way, in bytes
// allocated: what feeds the garbage collector.
import { profileFiles, readProfile, topShares } from './profile-read.js';

const arg = process.argv[2];
const top = Number(process.argv[3] ?? 20);
if (!arg) throw new Error('usage: profile-summary <file.cpuprofile|file.heapprofile|dir> [top]');

const pct = (x: number) => `${x.toFixed(1).padStart(5)} %`;
for (const file of profileFiles(arg)) {
  const s = readProfile(file);
  if (s.kind === 'heap') {
    console.log(`# ${file}: ${(s.total / 2 ** 20).toFixed(0)} MiB allocated while profiled (sampled; divide by the requests served for a figure per request)`);
    console.log('## bytes allocated by package');
    for (const [a, x] of topShares(s.byArea, s.total, top)) console.log(`${pct(x)}  ${a}`);
    console.log('## top functions by bytes allocated');
    for (const [f, x] of topShares(s.byFn, s.total, top)) console.log(`${pct(x)}  ${f}`);
    continue;
  }
  console.log(`# ${file}: ${(s.total / 1000).toFixed(1)} s profiled, ${(s.busy / 1000).toFixed(1)} s busy (idle left out of the percentages)`);
  console.log('## self time by package');
  for (const [a, x] of topShares(s.byArea, s.busy, top)) console.log(`${pct(x)}  ${a}`);
  console.log('## top functions by self time');
  for (const [f, x] of topShares(s.byFn, s.busy, top)) console.log(`${pct(x)}  ${f}`);
}
