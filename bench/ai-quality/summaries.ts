// Summaries on test/ai-quality/summaries.json (news paragraphs with their main point marked; fixed
// split): is the main-point sentence in the summary at the endpoint's default max_length? The
// position weight's range on `train` is printed beside the shipped one; the target holds on
// `heldout`. Alternatives: TextRank alone (weight 0) and the first sentence.
import { defaultSummaryLength, POSITION_WEIGHT, summarize } from '../../subgraphs/ai/models/summarize.js';
import { loadWink } from '../../subgraphs/ai/models/wink.js';
import { atLeast, info, loadSet, type Row } from './row.js';

interface Paragraph {
  text: string;
  main_point: string;
}

export async function run(): Promise<Row[]> {
  const set = loadSet<Paragraph>('summaries.json') as unknown as { train: Paragraph[]; heldout: Paragraph[] };
  const wink = loadWink();
  const kept = (items: Paragraph[], weight: number) => items.filter((p) => summarize(wink, p.text, defaultSummaryLength(p.text), weight).summary.includes(p.main_point)).length;
  const weights = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
  const bestTrain = Math.max(...weights.map((w) => kept(set.train, w)));
  const plateau = weights.filter((w) => kept(set.train, w) === bestTrain);
  const h = set.heldout;
  const firstSentence = h.filter((p) => p.text.startsWith(p.main_point)).length;
  return [
    { figure: 'summaries: position weights keeping every train main point', value: `${plateau[0]}–${plateau[plateau.length - 1]} (shipped ${POSITION_WEIGHT})`, target: 'shipped inside', pass: plateau.includes(POSITION_WEIGHT) },
    atLeast(`summaries held-out: main point kept, TextRank + position + redundancy (${h.length})`, kept(h, POSITION_WEIGHT), h.length, 0.9),
    info('summaries held-out: TextRank alone (comparison)', kept(h, 0), h.length),
    info('summaries held-out: first sentence (comparison)', firstSentence, h.length),
  ];
}
