// Quality of the AI methods on the hand-labelled sets under test/ai-quality/ (fixed train/held-out
// splits), each figure against its target, next to one alternative method where that makes the
// choice visible (docs/ai.md, Quality). Runs the model code in-process (no stack):
// npm run bench:ai-quality. Each figure group is a file under bench/ai-quality/ exporting run().
import type { Row } from './ai-quality/row.js';
import * as detection from './ai-quality/detection.js';
import * as embeddings from './ai-quality/embeddings.js';
import * as entities from './ai-quality/entities.js';
import * as language from './ai-quality/language.js';
import * as latency from './ai-quality/latency.js';
import * as moderation from './ai-quality/moderation.js';
import * as sentiment from './ai-quality/sentiment.js';
import * as summaries from './ai-quality/summaries.js';

const groups: Array<{ name: string; run: () => Promise<Row[]> }> = [
  { name: 'sentiment', run: sentiment.run },
  { name: 'language', run: language.run },
  { name: 'summaries', run: summaries.run },
  { name: 'entities', run: entities.run },
  { name: 'detection', run: detection.run },
  { name: 'embeddings', run: embeddings.run },
  { name: 'moderation', run: moderation.run },
  { name: 'latency', run: latency.run },
];

const rows: Row[] = [];
for (const g of groups) rows.push(...(await g.run()));
const w = (k: keyof Row) => Math.max(k.length, ...rows.map((r) => String(r[k]).length));
const [fw, vw, tw] = [w('figure'), w('value'), w('target')];
const line = (f: string, v: string, t: string, p: string) => `${f.padEnd(fw)}  ${v.padEnd(vw)}  ${t.padEnd(tw)}  ${p}`;
console.log(line('figure', 'value', 'target', 'pass'));
console.log(line('-'.repeat(fw), '-'.repeat(vw), '-'.repeat(tw), '----'));
for (const r of rows) console.log(line(r.figure, r.value, r.target, r.pass === null ? '' : r.pass ? 'yes' : 'NO'));
const failed = rows.filter((r) => r.pass === false).length;
console.log(failed ? `\n${failed} figure(s) below target` : '\nevery figure with a target meets it');
