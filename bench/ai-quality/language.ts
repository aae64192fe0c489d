// Language on test/ai-quality/language-close-pairs.json (33 languages with the close pairs; fixed
// split, the target holds on `heldout`): ours (fastText + ELD + script rules) next to fastText
// lid.176 alone and ELD large alone. The older en/es/ca/fr set (language.json) is shown too.
import { eld } from 'eld/large';
import { LanguageIdentifier } from '../../subgraphs/ai/models/language.js';
import { atLeast, info, loadSet, type Row } from './row.js';

type Item = [string, string];

export async function run(): Promise<Row[]> {
  const set = loadSet<Item>('language-close-pairs.json') as unknown as { train: Item[]; heldout: Item[] };
  const lid = await LanguageIdentifier.load();
  const correct = (items: Item[], detect: (t: string) => string) => items.filter(([t, l]) => detect(t) === l).length;
  const ours = (t: string) => lid.identify(t, 0).language;
  const h = set.heldout;
  const langs = new Set(h.map(([, l]) => l)).size;
  const old = loadSet<Item>('language.json').items;
  return [
    info(`language train: fastText + ELD + rules (${set.train.length})`, correct(set.train, ours), set.train.length),
    atLeast(`language held-out: fastText + ELD + rules (${h.length}, ${langs} languages)`, correct(h, ours), h.length, 0.92),
    info('language held-out: fastText lid.176 alone (comparison)', correct(h, (t) => lid.fastText(t, 0).language), h.length),
    info('language held-out: ELD large alone (comparison)', correct(h, (t) => eld.detect(t).language ?? ''), h.length),
    info(`language en/es/ca/fr TED set: ours (${old.length})`, correct(old, ours), old.length),
  ];
}
