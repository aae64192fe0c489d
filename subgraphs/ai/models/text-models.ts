// The in-process text models, loaded together once (in a worker thread, text-model-pool.ts) and
// called by operation name. Every operation is synchronous CPU work, which is why it runs off the
// event loop.
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

export class TextModels {
  private constructor(
    private readonly wink: Wink,
    private readonly lid: LanguageIdentifier,
    private readonly ner: EntityRecognizer,
    private readonly moderator: TextModerator,
    /** milliseconds each model took to load */
    readonly loadMs: Record<string, number>,
  ) {}

  static async load(): Promise<TextModels> {
    const loadMs: Record<string, number> = {};
    const timed = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
      const t = performance.now();
      const v = await f();
      loadMs[name] = Math.round(performance.now() - t);
      return v;
    };
    const wink = await timed('wink-eng-lite-web-model', loadWink);
    const lid = await timed('fasttext-lid.176+eld', () => LanguageIdentifier.load());
    const ner = await timed('compromise', () => {
      const r = new EntityRecognizer(wink);
      r.recognize('Warm-up: Ada Lovelace met Charles Babbage in London on 5 June 1833.'); // compromise builds its lexicon on first use
      return r;
    });
    // 40 MB read once; a process without the derived file answers the default model with its error
    if (wordVectorsInstalled()) await timed('glove-sif-100d', () => wordVectors());
    // obscenity + intent rules + the moderation classifier, trained here on the shipped labelled set
    const moderator = await timed('moderation', () => TextModerator.load());
    await timed('vader', () => sentiment('warm-up'));
    return new TextModels(wink, lid, ner, moderator, loadMs);
  }

  run<O extends TextOp>(op: O, args: TextOps[O]['args']): TextOps[O]['result'] {
    const a = args as any;
    switch (op) {
      case 'sentiment':
        return sentiment(a.text) as TextOps[O]['result'];
      case 'language':
        return this.lid.identify(a.text, a.alternatives ?? 3) as TextOps[O]['result'];
      case 'entities':
        return this.ner.recognize(a.text, a.types ?? [], a.productNames ?? []) as TextOps[O]['result'];
      case 'keyPhrases':
        return keyPhrases(this.wink, a.text, a.max ?? 10) as TextOps[O]['result'];
      case 'summarize':
        return summarize(this.wink, a.text, a.maxLength) as TextOps[O]['result'];
      case 'moderate':
        return this.moderator.moderate(a.text, a.categories) as TextOps[O]['result'];
      case 'hashedEmbed':
        return (a.texts as string[]).map(hashedEmbedding) as TextOps[O]['result'];
      case 'sifEmbed':
        return (a.texts as string[]).map(sifEmbedding) as TextOps[O]['result'];
      default:
        throw new Error(`unknown text operation ${String(op)}`);
    }
  }
}
