// npm run bench:profile-summary -- <file.cpuprofile|file.heapprofile|dir> [top]: where a CPU profile's
// time went, as text: self time per package (node_modules/<pkg>, the project's own directories, node
// internals, GC, idle) and the top functions by self time. The flame-graph summary of
// docs/performance.md. An allocation profile (BENCH_PROFILE_KIND=heap) the same way, in bytes
// allocated: what feeds the garbage collector.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

const arg = process.argv[2];
const top = Number(process.argv[3] ?? 20);
if (!arg) throw new Error('usage: profile-summary <file.cpuprofile|dir> [top]');
const files = statSync(arg).isDirectory() ? readdirSync(arg).filter((f) => /\.(cpu|heap)profile$/.test(f)).map((f) => join(arg, f)) : [arg];

/** A sampling heap profile (HeapProfiler.stopSampling): a tree of call frames with the bytes each allocated. */
interface HeapNode {
  callFrame: Node['callFrame'];
  selfSize: number;
  children?: HeapNode[];
}

/** Which package or project part a script URL belongs to. */
function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node internals';
  const m = /\/(lib|gateway|rest-bridge|subgraphs\/[^/]+|scripts|bench)\//.exec(url);
  return m ? `project ${m[1]}` : url;
}

const shortUrl = (url: string) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(lib|gateway|rest-bridge|subgraphs|scripts|bench)\//, '$1/');

function summariseHeap(file: string, head: HeapNode): void {
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  const stack = [head];
  for (let n = stack.pop(); n; n = stack.pop()) {
    stack.push(...(n.children ?? []));
    if (!n.selfSize) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    total += n.selfSize;
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + n.selfSize);
    const key = `${functionName || '(anonymous)'}  ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
    byFn.set(key, (byFn.get(key) ?? 0) + n.selfSize);
  }
  const pct = (b: number) => `${((b / total) * 100).toFixed(1).padStart(5)} %`;
  console.log(`# ${file}: ${(total / 2 ** 20).toFixed(0)} MiB allocated while profiled (sampled; divide by the requests served for a figure per request)`);
  console.log('## bytes allocated by package');
  for (const [a, b] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(b)}  ${a}`);
  console.log('## top functions by bytes allocated');
  for (const [f, b] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(b)}  ${f}`);
}

for (const file of files) {
  if (file.endsWith('.heapprofile')) {
    summariseHeap(file, (JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head);
    continue;
  }
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = (p.endTime - p.startTime) / 1000;
  const samples = p.samples?.length ?? p.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0);
  const perSample = samples ? total / samples : 0;
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const n of p.nodes) {
    const ms = (n.hitCount ?? 0) * perSample;
    if (!ms) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + ms);
    const key = `${functionName || '(anonymous)'}  ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
  }
  const idle = byArea.get('(idle)') ?? 0;
  const busy = total - idle;
  const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)} %`;
  console.log(`# ${file}: ${(total / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy (idle left out of the percentages)`);
  console.log('## self time by package');
  for (const [a, ms] of [...byArea].filter(([a]) => a !== '(idle)').sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(ms)}  ${a}`);
  console.log('## top functions by self time');
  for (const [f, ms] of [...byFn].filter(([f]) => !f.startsWith('(idle)')).sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(ms)}  ${f}`);
}
