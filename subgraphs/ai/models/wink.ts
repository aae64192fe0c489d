// One English wink-nlp pipeline (wink-eng-lite-web-model 1.8.1: tokens, sentences, POS, lemmas,
// stop words, DATE/MONEY/… entities) and the character offsets of its tokens, which wink does not
// report directly: they are recovered from each token's preceding spaces and value.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export type Wink = ReturnType<typeof winkNLP>;
export type WinkDoc = ReturnType<Wink['readDoc']>;

export function loadWink(): Wink {
  return winkNLP(model);
}

/** [start, end) character offsets of every token of `doc`, read over the original `text`. */
export function tokenOffsets(wink: Wink, doc: WinkDoc, text: string): Array<[number, number]> {
  const its = wink.its;
  const values = doc.tokens().out(its.value) as string[];
  const spaces = doc.tokens().out(its.precedingSpaces) as string[];
  const out: Array<[number, number]> = [];
  let pos = 0;
  for (let i = 0; i < values.length; i++) {
    const guess = pos + spaces[i].length;
    // wink keeps the original spelling; indexOf guards against any whitespace it collapsed.
    const found = text.startsWith(values[i], guess) ? guess : text.indexOf(values[i], pos);
    const start = found >= 0 ? found : guess;
    out.push([start, start + values[i].length]);
    pos = start + values[i].length;
  }
  return out;
}
