// Embeddings by meaning (issue 31 item 2): retrieval (recall@1/@5 of the relevant document among
// 100, test/ai-quality/retrieval.json) and similarity (Spearman between cosine and the 0–5
// judgements, test/ai-quality/similarity.json) for the default model glove-sif-100d against the
// hashed model it replaced, and the p50 latency of one 1,000-character text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cosine, hashedEmbedding } from '../../lib/hashed-embeddings.js';
import { sifEmbedding } from '../../lib/word-vectors.js';
import type { Row } from './row.js';

const dir = resolve(import.meta.dirname, '..', '..', 'test', 'ai-quality');
type Embed = (t: string) => { vector: number[] };

export function retrieval(embed: Embed): { at1: number; at5: number; queries: number } {
  const set = JSON.parse(readFileSync(resolve(dir, 'retrieval.json'), 'utf8')) as { queries: Array<{ query: string; relevant: string }>; documents: Array<{ id: string; text: string }> };
  const docs = set.documents.map((d) => ({ id: d.id, v: embed(d.text).vector }));
  let at1 = 0;
  let at5 = 0;
  for (const q of set.queries) {
    const v = embed(q.query).vector;
    const ranked = docs.map((d) => ({ id: d.id, s: cosine(v, d.v) })).sort((a, b) => b.s - a.s);
    const rank = ranked.findIndex((d) => d.id === q.relevant);
    if (rank === 0) at1++;
    if (rank >= 0 && rank < 5) at5++;
  }
  return { at1: at1 / set.queries.length, at5: at5 / set.queries.length, queries: set.queries.length };
}

export function spearman(embed: Embed): { rho: number; pairs: number } {
  const set = JSON.parse(readFileSync(resolve(dir, 'similarity.json'), 'utf8')) as { items: Array<[string, string, number, string]> };
  const got = set.items.map(([a, b]) => cosine(embed(a).vector, embed(b).vector));
  const want = set.items.map(([, , s]) => s);
  return { rho: pearson(ranks(got), ranks(want)), pairs: set.items.length };
}

function ranks(x: number[]): number[] {
  const order = x.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const r = new Array<number>(x.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1].v === order[i].v) j++;
    for (let k = i; k <= j; k++) r[order[k].i] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function pearson(a: number[], b: number[]): number {
  const ma = a.reduce((s, v) => s + v, 0) / a.length;
  const mb = b.reduce((s, v) => s + v, 0) / b.length;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

function p50Ms(f: () => unknown): number {
  for (let i = 0; i < 20; i++) f();
  const t: number[] = [];
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[100];
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function run(): Promise<Row[]> {
  const before = { r: retrieval(hashedEmbedding), s: spearman(hashedEmbedding) };
  const after = { r: retrieval(sifEmbedding), s: spearman(sifEmbedding) };
  const text = 'The hotel offers free wireless internet in every room, a heated pool and breakfast from seven. '.repeat(11).slice(0, 1000);
  const sifP50 = p50Ms(() => sifEmbedding(text));
  return [
    { figure: `embeddings retrieval recall@1 (${after.r.queries} queries × 100 docs), hashed-ngrams-384 → glove-sif-100d`, value: `${pct(before.r.at1)} → ${pct(after.r.at1)}`, target: '', pass: null },
    { figure: 'embeddings retrieval recall@5, hashed-ngrams-384 → glove-sif-100d', value: `${pct(before.r.at5)} → ${pct(after.r.at5)}`, target: '≥ 60%', pass: after.r.at5 >= 0.6 },
    { figure: `embeddings similarity Spearman (${after.s.pairs} pairs judged 0–5), hashed-ngrams-384 → glove-sif-100d`, value: `${before.s.rho.toFixed(2)} → ${after.s.rho.toFixed(2)}`, target: '≥ 0.5', pass: after.s.rho >= 0.5 },
    { figure: 'embeddings glove-sif-100d p50, one 1,000-character text (in-process)', value: `${sifP50.toFixed(3)} ms`, target: '≤ 20 ms', pass: sifP50 <= 20 },
  ];
}
