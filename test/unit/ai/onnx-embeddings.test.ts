/** @jest-environment ./test/harness/native-arrays-environment.mjs */
// The ONNX embedding slot on a model the test writes itself (test/harness/onnx-builder.ts):
// WordPiece tokenisation, onnxruntime-node inference, attention-masked mean pooling, L2 norm.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnnxEmbeddingModel, OnnxModelDirectory } from '../../../subgraphs/ai/models/onnx-embeddings.js';
import { WordPieceTokenizer } from '../../../subgraphs/ai/models/wordpiece.js';
import { TINY_VOCAB, tinyTable, writeTinyModel } from '../../harness/onnx-builder.js';

const dir = mkdtempSync(join(tmpdir(), 'onnx-slot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vocab = new Map(TINY_VOCAB.map((t, i) => [t, i]));
const id = (t: string) => vocab.get(t)!;

function expected(tokens: string[]): number[] {
  const table = tinyTable();
  const ids = ['[CLS]', ...tokens, '[SEP]'].map(id);
  const mean = table[0].map((_, d) => ids.reduce((s, i) => s + table[i][d], 0) / ids.length);
  const n = Math.hypot(...mean);
  return mean.map((x) => x / n);
}

test('WordPiece: lower-cases, splits punctuation, uses ## pieces and [UNK], wraps in [CLS] … [SEP]', () => {
  const tok = new WordPieceTokenizer(vocab, { lowercase: true, maxLength: 16 });
  expect(tok.encode('The CATS sat on the mat.').tokens).toEqual(['[CLS]', 'the', 'cat', '##s', 'sat', 'on', 'the', 'mat', '.', '[SEP]']);
  expect(tok.encode('the zebra').tokens).toEqual(['[CLS]', 'the', '[UNK]', '[SEP]']);
  // truncation keeps [SEP]
  const short = new WordPieceTokenizer(vocab, { lowercase: true, maxLength: 4 });
  expect(short.encode('the cat sat on the mat').tokens).toEqual(['[CLS]', 'the', 'cat', '[SEP]']);
});

test('a dropped-in ONNX model embeds with masked mean pooling (padding does not change a vector)', async () => {
  writeTinyModel(dir, 'tiny');
  const models = new OnnxModelDirectory(dir);
  expect(models.names()).toEqual(['tiny']);
  const m = await models.get('tiny');
  // two inputs of different lengths: the shorter one is padded inside the batch
  const r = await m.embed(['the cat sat on the mat', 'stock markets fell']);
  expect(r.dimensions).toBe(8);
  expect(r.tokens).toBe(8 + 6); // [CLS] the cat sat on the mat [SEP] + [CLS] stock market ##s fell [SEP]
  const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 5));
  close(r.vectors[0], expected(['the', 'cat', 'sat', 'on', 'the', 'mat']));
  close(r.vectors[1], expected(['stock', 'market', '##s', 'fell']));
  const alone = await m.embed(['stock markets fell']);
  close(alone.vectors[0], r.vectors[1]);
  expect(models.loadedNames()).toEqual(['tiny']);
});

test('a folder without a tokenizer fails to load with a message naming what is missing', async () => {
  const folder = writeTinyModel(dir, 'broken');
  rmSync(join(folder, 'vocab.txt'));
  rmSync(join(folder, 'tokenizer_config.json'));
  await expect(OnnxEmbeddingModel.load('broken', folder)).rejects.toThrow(/vocab\.txt/);
});

test('model names cannot leave the models directory', () => {
  const models = new OnnxModelDirectory(dir);
  expect(models.has('../tiny')).toBe(false);
  expect(models.has('tiny')).toBe(true);
});
