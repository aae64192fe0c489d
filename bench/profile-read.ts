// Reading V8 profiles as the stack's benches write them (bench/profiled-stack.ts): self time (a CPU
// profile) or bytes allocated (a sampling heap profile) per package and per function. Printed by
// bench/profile-summary.ts and, after a profiled run, by bench/throughput.bench.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: CpuNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}
/** A sampling heap profile (HeapProfiler.stopSampling): a tree of call frames with the bytes each allocated. */
interface HeapNode {
  callFrame: CpuNode['callFrame'];
  selfSize: number;
  children?: HeapNode[];
}

/** One profile read: what it measured (ms of self time, or bytes), by package and by function. */
export interface ProfileSummary {
  file: string;
  kind: 'cpu' | 'heap';
  /** cpu: ms profiled; heap: bytes allocated */
  total: number;
  /** cpu: ms not idle (the percentages' base); heap: same as total */
  busy: number;
  byArea: Map<string, number>;
  byFn: Map<string, number>;
}

/** The profiles in `path` (a file, or every .cpuprofile / .heapprofile of a directory). */
export function profileFiles(path: string): string[] {
  return statSync(path).isDirectory() ? readdirSync(path).filter((f) => /\.(cpu|heap)profile$/.test(f)).map((f) => join(path, f)) : [path];
}

/** Which package or project part a script URL belongs to. */
export function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node internals';
  const m = /\/(lib|gateway|rest-bridge|subgraphs\/[^/]+|scripts|bench)\//.exec(url);
  return m ? `project ${m[1]}` : url;
}

const shortUrl = (url: string) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(lib|gateway|rest-bridge|subgraphs|scripts|bench)\//, '$1/');

function add(map: Map<string, number>, key: string, v: number): void {
  map.set(key, (map.get(key) ?? 0) + v);
}

function frameKey({ functionName, url, lineNumber }: CpuNode['callFrame']): string {
  return `${functionName || '(anonymous)'}  ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
}

/** A CPU profile's call tree, as V8 wrote it. */
export function readCpuNodes(file: string): CpuNode[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as CpuProfile).nodes;
}

export function readProfile(file: string): ProfileSummary {
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  if (file.endsWith('.heapprofile')) {
    let total = 0;
    const stack = [(JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head];
    for (let n = stack.pop(); n; n = stack.pop()) {
      stack.push(...(n.children ?? []));
      if (!n.selfSize) continue;
      total += n.selfSize;
      add(byArea, area(n.callFrame.url, n.callFrame.functionName), n.selfSize);
      add(byFn, frameKey(n.callFrame), n.selfSize);
    }
    return { file, kind: 'heap', total, busy: total, byArea, byFn };
  }
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const total = (p.endTime - p.startTime) / 1000;
  const samples = p.samples?.length ?? p.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0);
  const perSample = samples ? total / samples : 0;
  for (const n of p.nodes) {
    const ms = (n.hitCount ?? 0) * perSample;
    if (!ms) continue;
    add(byArea, area(n.callFrame.url, n.callFrame.functionName), ms);
    add(byFn, frameKey(n.callFrame), ms);
  }
  const idle = byArea.get('(idle)') ?? 0;
  byArea.delete('(idle)');
  for (const k of byFn.keys()) if (k.startsWith('(idle)')) byFn.delete(k);
  return { file, kind: 'cpu', total, busy: total - idle, byArea, byFn };
}

/** The `top` largest entries of a map, as [key, share of `base` in %]. */
export function topShares(map: Map<string, number>, base: number, top: number): [string, number][] {
  return [...map].sort((x, y) => y[1] - x[1]).slice(0, top).map(([k, v]) => [k, (v / base) * 100]);
}
