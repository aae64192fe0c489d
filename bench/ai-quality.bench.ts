// Quality of the AI text methods on the hand-labelled sets under test/ai-quality/, next to one
// alternative method each, so the choice is visible (docs/ai.md, Quality). Runs the model code
// in-process (no stack): npm run bench:ai-quality
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Sentiment from 'sentiment';
import { eld } from 'eld/medium';
import { EntityRecognizer } from '../subgraphs/ai/models/entities.js';
import { LanguageIdentifier } from '../subgraphs/ai/models/language.js';
import { sentiment } from '../subgraphs/ai/models/sentiment.js';
import { loadWink } from '../subgraphs/ai/models/wink.js';

const dir = resolve(import.meta.dirname, '..', 'test', 'ai-quality');
const load = <T>(name: string): T => (JSON.parse(readFileSync(resolve(dir, name), 'utf8')) as { items: T }).items;
const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;

// Sentiment: VADER (ours) vs AFINN-165 word sums (`sentiment` 5.0.2)
const sItems = load<Array<[string, string]>>('sentiment.json');
const afinn = new Sentiment();
const afinnLabel = (t: string) => {
  const s = afinn.analyze(t).score;
  return s > 0 ? 'positive' : s < 0 ? 'negative' : 'neutral';
};
const vaderOk = sItems.filter(([t, l]) => sentiment(t).label === l).length;
const afinnOk = sItems.filter(([t, l]) => afinnLabel(t) === l).length;
console.log(`sentiment (${sItems.length} sentences): VADER ${pct(vaderOk, sItems.length)}, AFINN ${pct(afinnOk, sItems.length)}`);

// Language: fastText lid.176 (ours) vs ELD medium (eld 2.1.0)
const lItems = load<Array<[string, string]>>('language.json');
const lid = await LanguageIdentifier.load();
const ftOk = lItems.filter(([t, l]) => lid.identify(t, 0).language === l).length;
const eldOk = lItems.filter(([t, l]) => eld.detect(t).language === l).length;
console.log(`language (${lItems.length} sentences, en/es/ca/fr): fastText lid.176 ${pct(ftOk, lItems.length)}, ELD medium ${pct(eldOk, lItems.length)}`);

// Entities: ours (compromise + wink + lists) vs compromise + wink alone (no lists), exact type+text
const eItems = load<Array<[string, Array<[string, string]>]>>('entities.json');
const ner = new EntityRecognizer(loadWink());
const score = (withLists: boolean) => {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const perType: Record<string, { tp: number; fp: number }> = {};
  for (const [text, gold] of eItems) {
    const got = ner.recognize(text, [], [], { lists: withLists }).map((e) => `${e.type}:${e.text}`);
    const want = gold.map(([t, x]) => `${t}:${x}`);
    for (const g of got) {
      const type = g.split(':')[0];
      perType[type] ??= { tp: 0, fp: 0 };
      if (want.includes(g)) {
        tp++;
        perType[type].tp++;
      } else {
        fp++;
        perType[type].fp++;
      }
    }
    fn += want.filter((w) => !got.includes(w)).length;
  }
  const p = tp / Math.max(1, tp + fp);
  const r = tp / Math.max(1, tp + fn);
  const f1 = (2 * p * r) / Math.max(1e-9, p + r);
  const types = Object.entries(perType).map(([t, c]) => `${t} ${pct(c.tp, c.tp + c.fp)}`).join(', ');
  return `precision ${pct(tp, tp + fp)}, recall ${pct(tp, tp + fn)}, F1 ${(100 * f1).toFixed(1)}% (precision by type: ${types})`;
};
const gold = eItems.reduce((s, [, g]) => s + g.length, 0);
console.log(`entities (${eItems.length} sentences, ${gold} gold entities): ours ${score(true)}`);
console.log(`entities: compromise + wink without the lists ${score(false)}`);

// Sections of issue 31, one module each under bench/ai-quality/ (figure, value, target)
const sections: Array<() => Promise<Array<{ figure: string; value: string; target: string }>>> = [];
sections.push((await import('./ai-quality/embeddings.js')).run);
sections.push((await import('./ai-quality/moderation.js')).run);
for (const section of sections) for (const r of await section()) console.log(`${r.figure}: ${r.value}${r.target ? ` (target ${r.target})` : ''}`);
