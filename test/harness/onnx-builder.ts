// Writes a tiny sentence-transformer-shaped ONNX model by hand (protobuf wire format, no library):
// inputs input_ids and attention_mask [batch, seq] int64, one Gather node looking token ids up in
// an embedding table, output last_hidden_state [batch, seq, dim]. The AI service's ONNX slot then
// tokenises, runs it on onnxruntime-node and mean-pools, exactly as it does a real MiniLM export.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: number[] | Uint8Array) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, 'utf8')]);

const FLOAT = 1;
const INT64 = 7;

function valueInfo(name: string, elemType: number, dims: Array<number | string>): number[] {
  const shape = dims.flatMap((d) => bytes(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  const tensorType = [...int(1, elemType), ...bytes(2, shape)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

/** The model bytes for an embedding table `table` (vocab × dim). */
export function embeddingLookupModel(table: number[][]): Uint8Array {
  const dim = table[0].length;
  const raw = Buffer.alloc(table.length * dim * 4);
  table.flat().forEach((x, i) => raw.writeFloatLE(x, i * 4));
  const initializer = [...int(1, table.length), ...int(1, dim), ...int(2, FLOAT), ...str(8, 'embeddings'), ...bytes(9, raw)];
  const node = [...str(1, 'embeddings'), ...str(1, 'input_ids'), ...str(2, 'last_hidden_state'), ...str(3, 'lookup'), ...str(4, 'Gather')];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'tiny-embedding'),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo('input_ids', INT64, ['batch', 'seq'])),
    ...bytes(11, valueInfo('attention_mask', INT64, ['batch', 'seq'])),
    ...bytes(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'seq', dim])),
  ];
  const model = [...int(1, 8), ...str(2, 'supergraph-tests'), ...bytes(7, graph), ...bytes(8, [...str(1, ''), ...int(2, 13)])];
  return Uint8Array.from(model);
}

export const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'the', 'cat', 'dog', 'sat', 'on', 'mat', 'stock', 'market', '##s', 'fell', '.'];

/** A deterministic table: token i has a 1 in dimension i mod dim plus a small ramp. */
export function tinyTable(dim = 8): number[][] {
  return TINY_VOCAB.map((_, i) => Array.from({ length: dim }, (_, d) => (d === i % dim ? 1 : 0) + i / 100));
}

/** Writes <dir>/<name>/{model.onnx, vocab.txt, tokenizer_config.json}; returns the folder. */
export function writeTinyModel(dir: string, name: string, table = tinyTable()): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'vocab.txt'), TINY_VOCAB.join('\n') + '\n');
  writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: true, model_max_length: 16 }));
  writeFileSync(join(folder, 'model.onnx'), embeddingLookupModel(table));
  return folder;
}
