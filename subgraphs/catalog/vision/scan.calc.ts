// The scan of visual search (pure): every indexed vector of the partition against every query
// vector, one pass over the rows per query. Vectors are unit length (lib/vision embed), so the
// dot product is the cosine. A product scores its best row (whole image or an object region of any
// of its images); results are the top `k` products per query, best first, ties by product id.
// Kept vectors are 8-bit (quantize: a quarter of float32's memory, so four times the images fit the
// process's cache), and so is each query; the scan's dot products run in WebAssembly SIMD
// (lib/int8-vectors) and keep a shortlist per query (shortlistSize), and rescore puts the exact
// float32 cosine of each shortlisted row in place of its estimate before the top `k` are cut.
import { Int8Rows } from '../../../lib/int8-vectors/int8-rows.js';

export interface IndexedVector {
  imageId: string;
  productId: string;
  /** the row's number within its image (0: the image itself) */
  region: number;
  /** clockwise degrees a whole-image row was turned (0: as uploaded, and every object row) */
  rotation: number;
  /** the detected object's class; null for a whole-image row */
  label: string | null;
  /** the vector in 8 bits (quantize): component i ≈ codes[i] × scale */
  codes: Int8Array;
  scale: number;
}

export interface ScanHit {
  productId: string;
  score: number;
  /** the row that gave the product its score */
  imageId: string;
  region: number;
  rotation: number;
  label: string | null;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/**
 * A vector in 8 bits: one scale per vector (its largest magnitude over 127), each component rounded
 * to the nearest step. A unit vector's cosine with a unit query then errs by about scale/7 at most
 * in practice (the rounding errors, each within ±scale/2, mostly cancel).
 */
export function quantize(v: Float32Array): { codes: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max / 127 || 1;
  const codes = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) codes[i] = Math.round(v[i] / scale);
  return { codes, scale };
}

/** Products the 8-bit scan keeps per query for rescoring, for a page of `k`. */
export const shortlistSize = (k: number): number => 2 * k + 10;

/** The key of a row within its partition: its image and region. */
export const rowKey = (r: { imageId: string; region: number }): string => `${r.imageId}/${r.region}`;

/** Rows kept together: their codes are views of `block` (one WebAssembly memory, the scan's input), row i at i. */
export interface VectorChunk {
  rows: readonly IndexedVector[];
  block: Int8Rows;
}

/**
 * Rows a chunk holds at most. A change re-packs only the chunks it touches (a fresh memory's pages
 * cost a fault each: re-packing a whole partition of 50,000 rows took 0.2 s), and a scan makes a
 * call per chunk.
 */
export const CHUNK_ROWS = 1024;

/** `rows` packed into chunks of `size` rows, each row's codes then a view of its chunk's block. */
export function chunked(rows: readonly IndexedVector[], size = CHUNK_ROWS): VectorChunk[] {
  const out: VectorChunk[] = [];
  const dims = rows.reduce((n, r) => Math.max(n, r.codes.length), 1);
  for (let from = 0; from < rows.length; from += size) {
    const part = rows.slice(from, from + size);
    const block = Int8Rows.of(part.map((r) => r.codes), dims);
    out.push({ block, rows: part.map((r, i) => ({ ...r, codes: block.row(i) })) });
  }
  return out;
}

/**
 * The best `k` products for each query by the 8-bit vectors (estimated scores), in the order of
 * `queries`; only rows of `products` when given. Ask for shortlistSize(k) and rescore them. Each query
 * is quantized too; its integer dot products with a chunk's rows come from Int8Rows (SIMD).
 */
export function scan(chunks: readonly VectorChunk[], queries: readonly Float32Array[], k: number, products?: ReadonlySet<string>): ScanHit[][] {
  const best = queries.map(() => new Map<string, ScanHit>());
  const quantized = queries.map((q) => quantize(q));
  for (const { rows, block } of chunks) {
    quantized.forEach(({ codes, scale: qs }, q) => {
      const dots = block.dots(codes);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (products && !products.has(row.productId)) continue;
        const score = dots[i] * row.scale * qs;
        const seen = best[q].get(row.productId);
        if (!seen || score > seen.score) best[q].set(row.productId, { productId: row.productId, score, imageId: row.imageId, region: row.region, rotation: row.rotation, label: row.label });
      }
    });
  }
  return best.map((m) => ranked([...m.values()], k));
}

/**
 * The shortlists with each row's exact cosine (`exact`: float32 vectors by rowKey), the top `k` of
 * each; a row missing from `exact` (its image deleted since the scan) is dropped.
 */
export function rescore(shortlists: readonly ScanHit[][], queries: readonly Float32Array[], exact: ReadonlyMap<string, Float32Array>, k: number): ScanHit[][] {
  return shortlists.map((hits, q) =>
    ranked(
      hits.flatMap((h) => {
        const v = exact.get(rowKey(h));
        return v ? [{ ...h, score: dot(v, queries[q]) }] : [];
      }),
      k,
    ),
  );
}

const ranked = (hits: ScanHit[], k: number) => hits.sort((a, b) => b.score - a.score || (a.productId < b.productId ? -1 : 1)).slice(0, k);

/** A vector as stored (float32, little-endian) and back. */
export function toBytes(v: Float32Array): Buffer {
  const out = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) out.writeFloatLE(v[i], i * 4);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function fromBytes(b: Buffer): Float32Array {
  // the common case is one copy of the bytes; an unaligned or big-endian buffer is read float by float
  if (LITTLE_ENDIAN) return new Float32Array(new Uint8Array(b).buffer, 0, b.length >> 2);
  const out = new Float32Array(b.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = b.readFloatLE(i * 4);
  return out;
}
