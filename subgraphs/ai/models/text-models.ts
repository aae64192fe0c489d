// The in-process text models (in a worker thread, text-model-pool.ts), called by operation name.
// Each model loads on the first operation that needs it (issue 27's memory: a process that never
// detects a language never holds ELD), or all at once with AI_PRELOAD=1. Every operation is
// synchronous CPU work once its model is loaded, which is why it runs off the event loop.
import { EntityRecognizer, type EntityType } from './entities.js';
import { hashedEmbedding } from '../../../lib/hashed-embeddings.js';
import { sifEmbedding, wordVectors, wordVectorsInstalled } from '../../../lib/word-vectors.js';
import { keyPhrases } from './key-phrases.js';
import { LanguageIdentifier } from './language.js';
import { TextModerator, type ModerationCategory } from './moderation.js';
import { sentiment } from './sentiment.js';
import { summarize } from './summarize.js';
import { loadWink, type Wink } from './wink.js';

export interface TextOps {
  sentiment: { args: { text: string }; result: ReturnType<typeof sentiment> };
  language: { args: { text: string; alternatives?: number }; result: ReturnType<LanguageIdentifier['identify']> };
  entities: { args: { text: string; types?: EntityType[]; productNames?: string[] }; result: ReturnType<EntityRecognizer['recognize']> };
  keyPhrases: { args: { text: string; max?: number }; result: ReturnType<typeof keyPhrases> };
  summarize: { args: { text: string; maxLength: number }; result: ReturnType<typeof summarize> };
  moderate: { args: { text: string; categories?: ModerationCategory[] }; result: ReturnType<TextModerator['moderate']> };
  hashedEmbed: { args: { texts: string[] }; result: Array<ReturnType<typeof hashedEmbedding>> };
  sifEmbed: { args: { texts: string[] }; result: Array<ReturnType<typeof sifEmbedding>> };
}
export type TextOp = keyof TextOps;

/** The models behind the operations, each loaded on the first operation that needs it. */
export type TextModelName = 'wink-eng-lite-web-model' | 'fasttext-lid.176+eld' | 'compromise' | 'glove-sif-100d' | 'moderation' | 'vader';
export const TEXT_MODEL_NAMES: readonly TextModelName[] = ['wink-eng-lite-web-model', 'fasttext-lid.176+eld', 'compromise', 'glove-sif-100d', 'moderation', 'vader'];

const NEEDS: Record<TextOp, TextModelName | null> = {
  sentiment: 'vader',
  language: 'fasttext-lid.176+eld',
  entities: 'compromise',
  keyPhrases: 'wink-eng-lite-web-model',
  summarize: 'wink-eng-lite-web-model',
  moderate: 'moderation',
  hashedEmbed: null,
  sifEmbed: 'glove-sif-100d',
};

export class TextModels {
  private readonly loading = new Map<TextModelName, Promise<unknown>>();
  /** milliseconds each loaded model took to load */
  readonly loadMs: Partial<Record<TextModelName, number>> = {};

  /** @param onLoaded told when a model has loaded, with its load time */
  constructor(private readonly onLoaded: (name: TextModelName, ms: number) => void = () => undefined) {}

  /** Every model now (AI_PRELOAD=1), rather than on first use. */
  async loadAll(): Promise<void> {
    for (const name of TEXT_MODEL_NAMES) await this.model(name);
  }

  async run<O extends TextOp>(op: O, args: TextOps[O]['args']): Promise<TextOps[O]['result']> {
    const a = args as any;
    switch (op) {
      case 'sentiment':
        await this.model('vader');
        return sentiment(a.text) as TextOps[O]['result'];
      case 'language':
        return (await this.lid()).identify(a.text, a.alternatives ?? 3) as TextOps[O]['result'];
      case 'entities':
        return (await this.ner()).recognize(a.text, a.types ?? [], a.productNames ?? []) as TextOps[O]['result'];
      case 'keyPhrases':
        return keyPhrases(await this.wink(), a.text, a.max ?? 10) as TextOps[O]['result'];
      case 'summarize':
        return summarize(await this.wink(), a.text, a.maxLength) as TextOps[O]['result'];
      case 'moderate':
        return (await this.moderator()).moderate(a.text, a.categories) as TextOps[O]['result'];
      case 'hashedEmbed':
        return (a.texts as string[]).map(hashedEmbedding) as TextOps[O]['result'];
      case 'sifEmbed':
        await this.model('glove-sif-100d');
        return (a.texts as string[]).map(sifEmbedding) as TextOps[O]['result'];
      default:
        throw new Error(`unknown text operation ${String(op)}`);
    }
  }

  /** The model an operation needs (null: none). */
  static needs(op: TextOp): TextModelName | null {
    return NEEDS[op];
  }

  private wink = () => this.model('wink-eng-lite-web-model') as Promise<Wink>;
  private lid = () => this.model('fasttext-lid.176+eld') as Promise<LanguageIdentifier>;
  private ner = () => this.model('compromise') as Promise<EntityRecognizer>;
  private moderator = () => this.model('moderation') as Promise<TextModerator>;

  /** The model, loaded once (concurrent first calls share the load); a failed load is tried again on the next call. */
  private model(name: TextModelName): Promise<unknown> {
    let p = this.loading.get(name);
    if (!p) {
      const t = performance.now();
      p = this.load(name).then((v) => {
        const ms = Math.round(performance.now() - t);
        this.loadMs[name] = ms;
        this.onLoaded(name, ms);
        return v;
      });
      p.catch(() => this.loading.delete(name));
      this.loading.set(name, p);
    }
    return p;
  }

  private async load(name: TextModelName): Promise<unknown> {
    switch (name) {
      case 'wink-eng-lite-web-model':
        return loadWink();
      case 'fasttext-lid.176+eld':
        return LanguageIdentifier.load();
      case 'compromise': {
        const r = new EntityRecognizer(await this.wink());
        r.recognize('Warm-up: Ada Lovelace met Charles Babbage in London on 5 June 1833.'); // compromise builds its lexicon on first use
        return r;
      }
      case 'glove-sif-100d':
        // 40 MB read once (shared with the process's other threads); without the derived file the default model answers its error
        return wordVectorsInstalled() ? wordVectors() : null;
      case 'moderation':
        // obscenity + intent rules + the moderation classifier (read from its derived-model file, or trained once)
        await this.model('glove-sif-100d');
        return TextModerator.load();
      case 'vader':
        return sentiment('warm-up');
    }
  }
}
