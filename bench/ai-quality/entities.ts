// Entities: ours (compromise + wink + lists) vs compromise + wink alone (no lists), exact type+text,
// on test/ai-quality/entities.json.
import { EntityRecognizer } from '../../subgraphs/ai/models/entities.js';
import { loadWink } from '../../subgraphs/ai/models/wink.js';
import { loadSet, pct, type Row } from './row.js';

export async function run(): Promise<Row[]> {
  const { items } = loadSet<[string, Array<[string, string]>]>('entities.json');
  const ner = new EntityRecognizer(loadWink());
  const score = (withLists: boolean) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [text, gold] of items) {
      const got = ner.recognize(text, [], [], { lists: withLists }).map((e) => `${e.type}:${e.text}`);
      const want = gold.map(([t, x]) => `${t}:${x}`);
      for (const g of got) {
        if (want.includes(g)) tp++;
        else fp++;
      }
      fn += want.filter((w) => !got.includes(w)).length;
    }
    const p = tp / Math.max(1, tp + fp);
    const r = tp / Math.max(1, tp + fn);
    const f1 = (2 * p * r) / Math.max(1e-9, p + r);
    return `F1 ${(100 * f1).toFixed(1)}% (precision ${pct(tp, tp + fp)}, recall ${pct(tp, tp + fn)})`;
  };
  return [
    { figure: 'entities: compromise + wink + lists', value: score(true), target: '', pass: null },
    { figure: 'entities: without the lists (comparison)', value: score(false), target: '', pass: null },
  ];
}
