// npm run bench:flamegraph -- <file.cpuprofile|dir> <out.svg> [title]: a flame graph of a CPU profile
// (bench/profiled-stack.ts, or node --cpu-prof) as a self-contained SVG: one box a call path, as
// wide as its share of the busy time (idle left out), callers below their callees, coloured by
// package; hovering a box shows its function, file and share. docs/performance.md shows one.
import { writeFileSync } from 'node:fs';
import { area, profileFiles, readCpuNodes, type CpuNode as Node } from './profile-read.js';

const [input, out, title = 'CPU flame graph'] = process.argv.slice(2);
if (!input || !out) throw new Error('usage: flamegraph <file.cpuprofile|dir> <out.svg> [title]');
const file = profileFiles(input).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${input}`);
const nodes = readCpuNodes(file);
const byId = new Map(nodes.map((n) => [n.id, n]));

const WIDTH = 1200;
const ROW = 16;
/** boxes narrower than this (px) are left out: they could not be read, and they would make the file large */
const MIN_PX = 0.3;

/** hits of `n` and everything it called, idle left out */
const totals = new Map<number, number>();
function total(n: Node): number {
  if (n.callFrame.functionName === '(idle)') return 0;
  let t = n.hitCount ?? 0;
  for (const c of n.children ?? []) t += total(byId.get(c)!);
  totals.set(n.id, t);
  return t;
}
const root = nodes[0]!;
const busy = total(root);

/** a box's colour: by the package or project part of its frame (profile-read's area) */
function colour(a: string): string {
  if (a === '(garbage collector)') return 'hsl(0, 0%, 60%)';
  if (a.startsWith('(') || a === 'node internals') return 'hsl(35, 70%, 62%)';
  let h = 0;
  for (const ch of a) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 55%, 65%)`;
}
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const boxes: string[] = [];
let depthMax = 0;
function layout(n: Node, x: number, depth: number): void {
  const t = totals.get(n.id) ?? 0;
  const w = (t / busy) * WIDTH;
  if (w < MIN_PX) return;
  depthMax = Math.max(depthMax, depth);
  if (depth > 0) {
    const { functionName, url, lineNumber } = n.callFrame;
    const name = functionName || '(anonymous)';
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist\/)?/, '')}:${lineNumber + 1}` : '';
    const pct = ((t / busy) * 100).toFixed(2);
    const label = w > 30 ? `<text x="${(x + 3).toFixed(1)}" y="${-depth * ROW + 11}">${esc(name.slice(0, Math.floor((w - 6) / 6.2)))}</text>` : '';
    boxes.push(`<g><title>${esc(`${name} ${where}\n${pct} % of busy time`)}</title><rect x="${x.toFixed(1)}" y="${-depth * ROW}" width="${w.toFixed(1)}" height="${ROW - 1}" fill="${colour(area(url, name))}"/>${label}</g>`);
  }
  let cx = x;
  for (const c of n.children ?? []) {
    const child = byId.get(c)!;
    layout(child, cx, depth + 1);
    cx += ((totals.get(child.id) ?? 0) / busy) * WIDTH;
  }
}
layout(root, 0, 0);

const height = (depthMax + 2) * ROW + 24;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 ${-(depthMax + 1) * ROW - 24} ${WIDTH} ${height}" font-family="monospace" font-size="10">
<text x="0" y="${-(depthMax + 1) * ROW - 8}" font-size="13">${esc(title)} (${(busy / 1000).toFixed(0)} k samples busy; hover a box for its share)</text>
${boxes.join('\n')}
</svg>
`;
writeFileSync(out, svg);
console.log(`${out}: ${boxes.length} boxes, depth ${depthMax}, ${(svg.length / 1024).toFixed(0)} KiB`);
