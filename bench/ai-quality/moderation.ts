// Moderation by intent (issue 31 item 1) on the held-out part of the labelled set
// (test/ai-quality/moderation/held-out.json, never trained on): recall per category (the text's
// own category scores ≥ 0.5) and false positives (any category ≥ 0.5) on hard negatives and
// benign texts; for the rules alone, the classifier alone and both (the product); p50 latency.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ALL_MODERATION_CATEGORIES, FLAG_THRESHOLD, readTrainingSet, TextModerator, type ModerationCategory } from '../../subgraphs/ai/models/moderation.js';
import type { Row } from './row.js';

const file = resolve(import.meta.dirname, '..', '..', 'test', 'ai-quality', 'moderation', 'held-out.json');
type Item = { text: string; label: string; kind?: string };
type Scorer = (text: string) => Record<ModerationCategory, number>;

export function measure(items: readonly Item[], score: Scorer) {
  const recall: Record<string, { hit: number; n: number }> = {};
  const fp: Record<string, { hit: number; n: number; texts: string[] }> = {};
  for (const it of items) {
    const s = score(it.text);
    if (it.label === 'none') {
      const k = it.kind ?? 'benign';
      fp[k] ??= { hit: 0, n: 0, texts: [] };
      fp[k].n++;
      if (ALL_MODERATION_CATEGORIES.some((c) => s[c] >= FLAG_THRESHOLD)) {
        fp[k].hit++;
        fp[k].texts.push(it.text);
      }
    } else {
      recall[it.label] ??= { hit: 0, n: 0 };
      recall[it.label].n++;
      if (s[it.label as ModerationCategory] >= FLAG_THRESHOLD) recall[it.label].hit++;
    }
  }
  return { recall, fp };
}

const pct = (h: number, n: number) => `${((100 * h) / Math.max(1, n)).toFixed(0)}%`;

export async function run(): Promise<Row[]> {
  const items = (JSON.parse(readFileSync(file, 'utf8')) as { items: Item[] }).items;
  const m = await TextModerator.load();
  const variants: Array<[string, Scorer]> = [
    ['rules only', (t) => m.signals(t).rules],
    ['classifier only', (t) => m.signals(t).classifier],
    ['rules + classifier (the product)', (t) => m.scores(t)],
  ];
  const rows: Row[] = [];
  for (const [name, scorer] of variants) {
    const r = measure(items, scorer);
    const per = ALL_MODERATION_CATEGORIES.map((c) => `${c} ${r.recall[c].hit}/${r.recall[c].n}`).join(', ');
    const minRecall = Math.min(...ALL_MODERATION_CATEGORIES.map((c) => r.recall[c].hit / r.recall[c].n));
    rows.push({ figure: `moderation held-out recall per category, ${name}`, value: `${per} (lowest ${pct(minRecall, 1)})`, target: name.includes('product') ? '≥ 80% each' : '', pass: name.includes('product') ? minRecall >= 0.8 : null });
    const hard = r.fp['hard-negative'];
    rows.push({ figure: `moderation held-out false positives on hard negatives, ${name}`, value: `${hard.hit}/${hard.n} (${pct(hard.hit, hard.n)})${hard.texts.length && name.includes('product') ? `: ${hard.texts.map((t) => JSON.stringify(t)).join(', ')}` : ''}`, target: name.includes('product') ? '≤ 5%' : '', pass: name.includes('product') ? hard.hit / Math.max(1, hard.n) <= 0.05 : null });
    if (name.includes('product')) rows.push({ figure: 'moderation held-out false positives on benign texts', value: `${r.fp.benign.hit}/${r.fp.benign.n}`, target: '', pass: null });
  }
  // 5-fold cross-validation on the training part: how CLASSIFIER_FLAG_AT was chosen, never the held-out part
  const all = readTrainingSet() as Item[];
  const folds: Item[][] = [[], [], [], [], []];
  all.forEach((it, i) => folds[i % 5].push(it));
  const cv = { recall: {} as Record<string, { hit: number; n: number }>, hard: { hit: 0, n: 0 } };
  for (let f = 0; f < 5; f++) {
    const fm = await TextModerator.load(all.filter((_, i) => i % 5 !== f));
    const r = measure(folds[f], (t) => fm.scores(t));
    for (const [c, v] of Object.entries(r.recall)) {
      cv.recall[c] ??= { hit: 0, n: 0 };
      cv.recall[c].hit += v.hit;
      cv.recall[c].n += v.n;
    }
    cv.hard.hit += r.fp['hard-negative']?.hit ?? 0;
    cv.hard.n += r.fp['hard-negative']?.n ?? 0;
  }
  rows.push({ figure: `moderation 5-fold cross-validation on the training part (${all.length} texts), recall per category`, value: ALL_MODERATION_CATEGORIES.map((c) => `${c} ${cv.recall[c].hit}/${cv.recall[c].n}`).join(', '), target: '', pass: null });
  rows.push({ figure: 'moderation 5-fold cross-validation on the training part, false positives on hard negatives', value: `${cv.hard.hit}/${cv.hard.n} (${pct(cv.hard.hit, cv.hard.n)})`, target: '', pass: null });

  const text = 'I will be at the office after work; the meeting about the new server and the process that keeps crashing is moved to Friday. '.repeat(8).slice(0, 1000);
  // CPU time held to the budget, wall time beside it (as latency.ts: a loaded machine inflates wall time)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 220; i++) {
    const s = performance.now();
    const c = process.cpuUsage();
    m.moderate(text);
    const used = process.cpuUsage(c);
    if (i < 20) continue;
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - s);
  }
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[100];
  const cpuP50 = p50(cpu);
  rows.push({ figure: 'moderation p50 CPU time, one 1,000-character text (in-process)', value: `${cpuP50.toFixed(2)} ms (wall ${p50(wall).toFixed(2)} ms)`, target: '≤ 20 ms', pass: cpuP50 <= 20 });
  return rows;
}
