// ELD large loaded from its n-gram table as JSON (subgraphs/ai/models/eld.ts) answers exactly what
// eld/large answers, on every text of the language sets in test/ai-quality (the close pairs too),
// and knows the same languages.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEldLarge } from '../../../subgraphs/ai/models/eld.js';

const dir = resolve(import.meta.dirname, '../../ai-quality');
const texts = (file: string): string[] => {
  const j = JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as Record<string, unknown>;
  const rows = ['items', 'train', 'heldout'].flatMap((k) => (Array.isArray(j[k]) ? (j[k] as unknown[][]) : []));
  return rows.map((r) => String(r[0]));
};

test('the JSON-loaded detector and eld/large agree on every language-set text', async () => {
  const fromJson = await loadEldLarge();
  const { eld } = await import('eld/large');
  const all = [...texts('language.json'), ...texts('language-close-pairs.json'), 'Hello world', 'Ceci est un texte.', ''];
  expect(all.length).toBeGreaterThan(100);
  for (const t of all) expect(fromJson.detect(t).language).toBe(eld.detect(t).language);
  expect(fromJson.info().Languages).toEqual((eld.info() as { Languages: unknown }).Languages);
}, 120_000);
