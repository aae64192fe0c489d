// BERT WordPiece tokenisation, as sentence-transformers' BERT-family models (MiniLM, MPNet's BERT
// tokenizer, BGE, E5) expect it: basic tokenisation (optional lower-casing and accent stripping,
// splits on whitespace, punctuation and CJK characters), then greedy longest-match-first word
// pieces with the `##` continuation prefix, [UNK] for words that cannot be split, [CLS] … [SEP].
export interface WordPieceOptions {
  lowercase: boolean;
  maxLength: number;
  unkToken?: string;
  clsToken?: string;
  sepToken?: string;
  padToken?: string;
}

export interface Encoding {
  ids: number[];
  /** the word pieces, for debugging and tests */
  tokens: string[];
}

const MAX_WORD_CHARS = 100;

export class WordPieceTokenizer {
  readonly unkId: number;
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    private readonly opts: WordPieceOptions,
  ) {
    const id = (t: string) => {
      const v = vocab.get(t);
      if (v === undefined) throw new Error(`the vocabulary has no ${t} token`);
      return v;
    };
    this.unkId = id(opts.unkToken ?? '[UNK]');
    this.clsId = id(opts.clsToken ?? '[CLS]');
    this.sepId = id(opts.sepToken ?? '[SEP]');
    this.padId = vocab.get(opts.padToken ?? '[PAD]') ?? 0;
  }

  /** vocab.txt: one token per line, the line number is the id. */
  static vocabFromText(text: string): Map<string, number> {
    const vocab = new Map<string, number>();
    text.split(/\r?\n/).forEach((t, i) => {
      if (t.length && !vocab.has(t)) vocab.set(t, i);
    });
    return vocab;
  }

  encode(text: string): Encoding {
    const tokens: string[] = [];
    const ids: number[] = [];
    const budget = this.opts.maxLength - 2;
    outer: for (const word of this.basicTokens(text)) {
      for (const [piece, id] of this.wordPieces(word)) {
        if (ids.length >= budget) break outer;
        tokens.push(piece);
        ids.push(id);
      }
    }
    return { ids: [this.clsId, ...ids, this.sepId], tokens: ['[CLS]', ...tokens, '[SEP]'] };
  }

  basicTokens(text: string): string[] {
    let t = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g, '');
    if (this.opts.lowercase) t = t.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
    // punctuation and CJK ideographs become words of their own
    t = t.replace(/([\p{P}\p{S}\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff])/gu, ' $1 ');
    return t.split(/\s+/u).filter(Boolean);
  }

  private wordPieces(word: string): Array<[string, number]> {
    if (word.length > MAX_WORD_CHARS) return [['[UNK]', this.unkId]];
    const out: Array<[string, number]> = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let match: [string, number] | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + word.slice(start, end);
        const id = this.vocab.get(piece);
        if (id !== undefined) {
          match = [piece, id];
          break;
        }
        end--;
      }
      if (!match) return [['[UNK]', this.unkId]];
      out.push(match);
      start = end;
    }
    return out;
  }
}
