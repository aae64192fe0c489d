// The exact scan of visual search (pure): every indexed vector of the partition against every query
// vector, one pass over the rows for all queries. Vectors are unit length (lib/vision embed), so the
// dot product is the cosine. A product scores its best row (whole image or an object region of any
// of its images); results are the top `k` products per query, best first, ties by product id.

export interface IndexedVector {
  imageId: string;
  productId: string;
  /** the row's number within its image (0: the image itself) */
  region: number;
  /** clockwise degrees a whole-image row was turned (0: as uploaded, and every object row) */
  rotation: number;
  /** the detected object's class; null for a whole-image row */
  label: string | null;
  vector: Float32Array;
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

/** The best `k` products for each query, in the order of `queries`. */
export function scan(rows: readonly IndexedVector[], queries: readonly Float32Array[], k: number): ScanHit[][] {
  const best = queries.map(() => new Map<string, ScanHit>());
  for (const row of rows) {
    for (let q = 0; q < queries.length; q++) {
      const score = dot(row.vector, queries[q]);
      const seen = best[q].get(row.productId);
      if (!seen || score > seen.score) best[q].set(row.productId, { productId: row.productId, score, imageId: row.imageId, region: row.region, rotation: row.rotation, label: row.label });
    }
  }
  return best.map((m) => [...m.values()].sort((a, b) => b.score - a.score || (a.productId < b.productId ? -1 : 1)).slice(0, k));
}

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
