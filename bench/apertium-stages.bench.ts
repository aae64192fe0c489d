// One pair's Apertium pipeline in process (subgraphs/ai/models/apertium.pipeline.ts) on a
// 1,000-character text, two ways alternated call by call: its stages placed by the scheduler, and
// split over this process's two CPUs (apertium.cpus.ts). Prints the wall p50 of each, and each
// stage's CPU per call and time waiting for a CPU (from /proc/<pid>/schedstat); the answers of both
// must be the same at every call. docs/ai.md (Translation pipelines) quotes it.
// Run: node --import @swc-node/register/esm-register bench/apertium-stages.bench.ts [mode] [calls]
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Apertium } from '../subgraphs/ai/models/apertium.js';
import { allowedCpus, stageProcesses } from '../subgraphs/ai/models/apertium.cpus.js';
import { deformatText, reformatText } from '../subgraphs/ai/models/apertium.format.js';
import type { ApertiumPipeline } from '../subgraphs/ai/models/apertium.pipeline.js';

const MODE = process.argv[2] ?? 'eng-spa';
const N = Number(process.argv[3] ?? 100);
/** the AI bench's text (bench/ai.bench.ts) for English; texts of the same kind for the other sources */
const TEXTS: Record<string, string> = {
  eng:
    'When I was a kid, I was always fascinated by how things worked. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998. ' +
    'I saw the wings of a plane being built by hundreds of people. That day I decided I wanted to build things too. Years later I studied engineering at MIT, ' +
    'and the first thing I built was a terrible robot that could not walk. But building that robot taught me more than any lecture. Today our team at Microsoft ' +
    'spends $5 million a year on robots, and I still remember that factory. Good engineering is patient, curious and a little stubborn. ',
  spa:
    'El gato está en la mesa y mañana iremos a la playa con mis amigos. Mi padre era ingeniero en una fábrica de aviones en Sevilla, y me llevó allí en junio de 1998. ' +
    'Vi cómo cientos de personas construían las alas de un avión. Aquel día decidí que yo también quería construir cosas. Años después estudié ingeniería en Madrid. ',
  fr:
    "Le chat est sur la table et demain nous irons à la plage avec mes amis. Mon père était ingénieur dans une usine d'avions à Toulouse, et il m'y a emmené en juin 1998. " +
    "J'ai vu des centaines de personnes construire les ailes d'un avion. Ce jour-là, j'ai décidé que je voulais construire des choses moi aussi. ",
  cat:
    "El gat és a la taula i demà anirem a la platja amb els meus amics. El meu pare era enginyer en una fàbrica d'avions a Barcelona, i em va portar allà el juny de 1998. " +
    "Vaig veure centenars de persones construint les ales d'un avió. Aquell dia vaig decidir que jo també volia construir coses. ",
};
const text = (TEXTS[MODE.split('-')[0]] ?? TEXTS.eng).repeat(8).slice(0, 1000);

const schedstat = (pid: number): [number, number] => readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').slice(0, 2).map(Number) as [number, number];
const command = (pid: number): string =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((a) => a.replace(/^.*\//, ''))
    .join(' ');

const engine = await Apertium.discover();
const pair = engine.pairs.find((p) => p.mode === MODE);
if (!pair) {
  console.log(`no Apertium mode ${MODE}`);
  process.exit(0);
}
const cpus = allowedCpus().slice(0, 2);
const ways: Array<{ name: string; p: ApertiumPipeline; walls: number[]; stages: number[]; before: Array<[number, number]> }> = [
  { name: 'scheduler', p: engine.pipeline(pair), walls: [], stages: [], before: [] },
  { name: `split over CPUs ${cpus.join(',')}`, p: engine.pipeline(pair, cpus), walls: [], stages: [], before: [] },
];
const input = deformatText(text);
let expected = '';
for (const w of ways) {
  // the first call loads the dictionaries; the split measures calls 2-4 and pins after the 4th
  for (let i = 0; i < 10; i++) expected ||= reformatText(await w.p.run(input, 30_000));
  await new Promise((r) => setTimeout(r, 200));
  w.stages = stageProcesses(w.p.pid!);
  w.before = w.stages.map(schedstat);
}
const load = loadavg()[0];
for (let i = 0; i < N; i++) {
  for (const w of i % 2 ? ways : [...ways].reverse()) {
    const t = performance.now();
    const out = reformatText(await w.p.run(input, 30_000));
    w.walls.push(performance.now() - t);
    if (out !== expected) throw new Error(`${w.name}: the answer differs`);
  }
}
console.log(`${MODE}, 1,000 characters, ${N} calls each way, alternated; load ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}; answer sha256 ${createHash('sha256').update(expected).digest('hex').slice(0, 16)}`);
for (const w of ways) {
  const walls = [...w.walls].sort((a, b) => a - b);
  const at = (q: number): string => walls[Math.min(N - 1, Math.floor(q * N))].toFixed(2);
  let cpu = 0;
  const rows = w.stages.map((pid, i) => {
    const [run, wait] = schedstat(pid).map((x, j) => (x - w.before[i][j]) / 1e6 / N);
    cpu += run;
    const pinned = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return `    ${command(pid).slice(0, 44).padEnd(44)} cpu ${run.toFixed(2)} ms  waiting ${wait.toFixed(2)} ms  cpus ${pinned}`;
  });
  console.log(`  ${w.name}: p50 ${at(0.5)} ms  p25 ${at(0.25)}  p75 ${at(0.75)}  p95 ${at(0.95)}  min ${at(0)}; stages' cpu ${cpu.toFixed(2)} ms/call${w.p.split.cut ? `, cut after stage ${w.p.split.cut}` : ''}`);
  if (process.env.BENCH_STAGES) console.log(rows.join('\n'));
  w.p.stop();
}
engine.stop();
