// Sentiment: ours vs AFINN-165 word sums (`sentiment` 5.0.2) on test/ai-quality/sentiment.json.
import Sentiment from 'sentiment';
import { sentiment } from '../../subgraphs/ai/models/sentiment.js';
import { info, loadSet, type Row } from './row.js';

export async function run(): Promise<Row[]> {
  const { items } = loadSet<[string, string]>('sentiment.json');
  const afinn = new Sentiment();
  const afinnLabel = (t: string) => {
    const s = afinn.analyze(t).score;
    return s > 0 ? 'positive' : s < 0 ? 'negative' : 'neutral';
  };
  const ours = items.filter(([t, l]) => sentiment(t).label === l).length;
  const alt = items.filter(([t, l]) => afinnLabel(t) === l).length;
  return [info('sentiment: VADER', ours, items.length), info('sentiment: AFINN (comparison)', alt, items.length)];
}
