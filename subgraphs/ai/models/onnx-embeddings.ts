// The ONNX embedding slot: a sentence-transformer exported to ONNX runs on onnxruntime-node 1.30.0
// (CPU execution provider; inference runs on ORT's own threads, so the event loop stays free).
// An operator drops a folder into the models directory:
//   <AI_MODELS_DIR>/<name>/model.onnx   (or onnx/model.onnx)
//   <AI_MODELS_DIR>/<name>/vocab.txt    (or tokenizer.json with a WordPiece model)
//   optional tokenizer_config.json (do_lower_case, model_max_length), sentence_bert_config.json (max_seq_length)
// and calls the embeddings endpoint with `model: "<name>"`. Tokenisation is WordPiece
// (wordpiece.ts); pooling is the attention-masked mean of the token embeddings (or the model's own
// `sentence_embedding` output when it has one), then L2 normalisation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { normalize } from '../../../lib/hashed-embeddings.js';
import { WordPieceTokenizer } from './wordpiece.js';

export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DEFAULT_MAX_LENGTH = 256;

export interface EmbeddingBatch {
  vectors: number[][];
  tokens: number;
  dimensions: number;
}

export class OnnxEmbeddingModel {
  private constructor(
    readonly name: string,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: WordPieceTokenizer,
  ) {}

  static async load(name: string, dir: string): Promise<OnnxEmbeddingModel> {
    const file = [join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')].find((f) => existsSync(f));
    if (!file) throw new Error(`${dir} has no model.onnx`);
    const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
    if (!session.inputNames.includes('input_ids')) throw new Error(`${file} has no input_ids input (inputs: ${session.inputNames.join(', ')})`);
    return new OnnxEmbeddingModel(name, session, loadTokenizer(dir));
  }

  async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
    const encoded = texts.map((t) => this.tokenizer.encode(t).ids);
    const batch = encoded.length;
    const seq = Math.max(...encoded.map((e) => e.length));
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.tokenizer.padId));
    const mask = new BigInt64Array(batch * seq);
    encoded.forEach((e, b) => e.forEach((id, i) => {
      ids[b * seq + i] = BigInt(id);
      mask[b * seq + i] = 1n;
    }));
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', ids, [batch, seq]) };
    if (this.session.inputNames.includes('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', mask, [batch, seq]);
    if (this.session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch * seq), [batch, seq]);
    const outName = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'].find((n) => this.session.outputNames.includes(n)) ?? this.session.outputNames[0];
    const out = (await this.session.run(feeds, [outName]))[outName];
    const data = out.data as Float32Array;
    const dims = out.dims.map(Number);
    const vectors = dims.length === 2 ? rows(data, dims[0], dims[1]) : meanPool(data, dims, encoded.map((e) => e.length));
    return { vectors: vectors.map(normalize), tokens: encoded.reduce((s, e) => s + e.length, 0), dimensions: vectors[0]?.length ?? 0 };
  }
}

/** Mean of the token vectors of each sequence over its real (unpadded) tokens. */
export function meanPool(data: Float32Array, dims: number[], lengths: number[]): number[][] {
  const [batch, seq, dim] = dims;
  const out: number[][] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Array<number>(dim).fill(0);
    const n = Math.min(lengths[b], seq);
    for (let t = 0; t < n; t++) for (let d = 0; d < dim; d++) v[d] += data[(b * seq + t) * dim + d];
    out.push(v.map((x) => x / Math.max(1, n)));
  }
  return out;
}

function rows(data: Float32Array, n: number, dim: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from(data.subarray(i * dim, (i + 1) * dim)));
}

function readJson(file: string): Record<string, any> | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>) : undefined;
}

function loadTokenizer(dir: string): WordPieceTokenizer {
  const config = readJson(join(dir, 'tokenizer_config.json')) ?? {};
  const st = readJson(join(dir, 'sentence_bert_config.json')) ?? {};
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'));
  let vocab: Map<string, number>;
  let lowercase = config.do_lower_case ?? true;
  if (existsSync(join(dir, 'vocab.txt'))) {
    vocab = WordPieceTokenizer.vocabFromText(readFileSync(join(dir, 'vocab.txt'), 'utf8'));
  } else if (tokenizerJson?.model?.type === 'WordPiece' && tokenizerJson.model.vocab) {
    vocab = new Map(Object.entries(tokenizerJson.model.vocab as Record<string, number>));
    if (typeof tokenizerJson.normalizer?.lowercase === 'boolean') lowercase = tokenizerJson.normalizer.lowercase;
  } else {
    throw new Error(`${dir} has neither vocab.txt nor a WordPiece tokenizer.json`);
  }
  const limit = Number(st.max_seq_length ?? config.model_max_length ?? DEFAULT_MAX_LENGTH);
  const maxLength = Number.isFinite(limit) && limit > 2 && limit <= 8192 ? limit : DEFAULT_MAX_LENGTH;
  return new WordPieceTokenizer(vocab, { lowercase, maxLength, unkToken: config.unk_token, clsToken: config.cls_token, sepToken: config.sep_token, padToken: config.pad_token });
}

/** The folders of `root` that hold an ONNX model, each loaded once on first use. */
export class OnnxModelDirectory {
  private readonly loaded = new Map<string, Promise<OnnxEmbeddingModel>>();
  constructor(readonly root: string) {}

  /** Scanned on every call, so a model dropped in while the process runs is usable at once. */
  names(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((n) => MODEL_NAME.test(n))
      .filter((n) => {
        const d = join(this.root, n);
        return statSync(d).isDirectory() && (existsSync(join(d, 'model.onnx')) || existsSync(join(d, 'onnx', 'model.onnx')));
      })
      .sort();
  }

  has(name: string): boolean {
    return MODEL_NAME.test(name) && this.names().includes(name);
  }

  get(name: string): Promise<OnnxEmbeddingModel> {
    let p = this.loaded.get(name);
    if (!p) {
      p = OnnxEmbeddingModel.load(name, join(this.root, name));
      // a failed load is retried next time (the operator may be fixing the files)
      p.catch(() => this.loaded.delete(name));
      this.loaded.set(name, p);
    }
    return p;
  }

  loadedNames(): string[] {
    return [...this.loaded.keys()];
  }
}
