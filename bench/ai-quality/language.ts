// Language: ours vs ELD medium (eld 2.1.0) on test/ai-quality/language.json.
import { eld } from 'eld/medium';
import { LanguageIdentifier } from '../../subgraphs/ai/models/language.js';
import { info, loadSet, type Row } from './row.js';

export async function run(): Promise<Row[]> {
  const { items } = loadSet<[string, string]>('language.json');
  const lid = await LanguageIdentifier.load();
  const ours = items.filter(([t, l]) => lid.identify(t, 0).language === l).length;
  const alt = items.filter(([t, l]) => eld.detect(t).language === l).length;
  return [info('language: fastText lid.176', ours, items.length), info('language: ELD medium (comparison)', alt, items.length)];
}
