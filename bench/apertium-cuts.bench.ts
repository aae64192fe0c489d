// What cutting a text into sentence segments (subgraphs/ai/models/apertium.pipeline.ts) changes in
// Apertium's translation, per installed pair: each text of a corpus built from the quality sets
// (test/ai-quality/: news paragraphs, retrieval documents, reviews, entity sentences, retrieval
// queries, plus abbreviations; in Spanish, Catalan and French through the installed pairs; each text
// alone, twice and four times over) translated whole, in the segments the engine uses, and cut at
// every sentence end the splitter allows; a text counts as differing when its cut translation is not
// the whole one. docs/ai.md (Translation pipelines) quotes it.
// Run: node --import @swc-node/register/esm-register bench/apertium-cuts.bench.ts
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Apertium, type LanguagePair } from '../subgraphs/ai/models/apertium.js';
import { deformatText, reformatText } from '../subgraphs/ai/models/apertium.format.js';
import { sentenceSegments, type ApertiumPipeline } from '../subgraphs/ai/models/apertium.pipeline.js';

const SETS = resolve(import.meta.dirname, '../test/ai-quality');
const TIMEOUT_MS = 60_000;

const read = (name: string): any => JSON.parse(readFileSync(resolve(SETS, `${name}.json`), 'utf8'));
const joined = (xs: string[], n: number): string[] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n).join(' '));

function english(): string[] {
  const summaries = read('summaries');
  const retrieval = read('retrieval');
  const reviews = read('sentiment-reviews');
  return [
    ...[...summaries.train, ...summaries.heldout].map((x: { text: string }) => x.text),
    ...joined(retrieval.documents.map((d: { text: string }) => d.text), 8),
    ...joined([...reviews.train, ...reviews.heldout].map((x: [string, string]) => x[0]), 8),
    ...joined(read('entities').items.map((x: [string]) => x[0]), 4),
    ...joined(retrieval.queries.map((q: { query: string }) => q.query.replace(/^./, (c) => c.toUpperCase())), 6),
    'Mr. Smith met Dr. Jones at 10 a.m. on Monday. They talked about the plan, e.g. The budget and the team. Was it good? Nobody knew! '.repeat(3),
    'She said: "Go home." Then she left. The U.S. Army arrived at 5 p.m. It was late. Prices rose 3.5 percent. Why? Inflation! Etc. And so on.',
  ];
}

/** Every sentence end the splitter allows, as cuts (sentenceSegments with no length floor). */
function everySentence(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(/(?<=\p{Ll}{4}[.!?]) (?=\p{Lu})/gu)) {
    out.push(text.slice(start, m.index + 1));
    start = m.index + 1;
  }
  out.push(text.slice(start));
  return out.filter((x) => x.length > 0);
}

const engine = await Apertium.discover();
if (!engine.pairs.length) {
  console.log('no Apertium pair installed');
  process.exit(0);
}
const pipelines = new Map<string, ApertiumPipeline>();
const pipeline = (pair: LanguagePair): ApertiumPipeline => pipelines.get(pair.mode) ?? pipelines.set(pair.mode, engine.pipeline(pair)).get(pair.mode)!;
const translate = async (source: string, target: string, text: string): Promise<string | null> => {
  const pair = engine.find(source, target);
  return pair ? reformatText(await pipeline(pair).run(deformatText(text), TIMEOUT_MS)) : null;
};

const corpus: Record<string, string[]> = { en: english() };
for (const [lang, from, via] of [['es', 'en', 'en'], ['ca', 'es', 'es'], ['fr', 'es', 'es']] as const) {
  corpus[lang] = [];
  for (const text of corpus[from]) {
    const t = await translate(via, lang, text);
    if (t !== null) corpus[lang].push(t);
  }
}
for (const [text, lang] of read('language').items as Array<[string, string]>) (corpus[lang] ??= []).push(text);

console.log('pair       cuts         texts   cuts  differing  first difference (whole → cut)');
for (const pair of engine.pairs) {
  const rows = { engine: { texts: 0, cuts: 0, differ: 0, example: '' }, 'every end': { texts: 0, cuts: 0, differ: 0, example: '' } };
  for (const base of corpus[pair.source] ?? []) {
    for (const text of [base, `${base} ${base}`, `${base} ${base} ${base} ${base}`]) {
      const input = deformatText(text);
      const whole = await pipeline(pair).run(input, TIMEOUT_MS, [input]);
      for (const [name, segments] of [['engine', sentenceSegments(input)], ['every end', everySentence(input)]] as const) {
        const row = rows[name];
        row.texts++;
        row.cuts += segments.length - 1;
        const cut = await pipeline(pair).run(input, TIMEOUT_MS, segments);
        if (cut === whole) continue;
        row.differ++;
        row.example ||= firstDifference(reformatText(whole), reformatText(cut));
      }
    }
  }
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${pair.mode.padEnd(10)} ${name.padEnd(10)} ${String(r.texts).padStart(7)} ${String(r.cuts).padStart(6)} ${String(r.differ).padStart(10)}  ${r.example}`);
  }
}
for (const p of pipelines.values()) p.stop();
process.exit(0);

/** The words around the first place two translations part. */
function firstDifference(a: string, b: string): string {
  const x = a.split(' ');
  const y = b.split(' ');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  return `"${x.slice(Math.max(0, i - 2), x.length - j).join(' ')}" → "${y.slice(Math.max(0, i - 2), y.length - j).join(' ')}"`;
}
