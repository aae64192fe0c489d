// 8-bit rows in one WebAssembly memory (lib/int8-vectors): the SIMD kernel's dot products against
// plain sums, at lengths that are and are not multiples of its 16-byte step, the JavaScript sums
// where SIMD is missing, the row views, and the committed module against its text (build:wasm).
import { Int8Rows } from '../../lib/int8-vectors/int8-rows.js';
import { INT8_DOTS_WASM } from '../../lib/int8-vectors/int8-dots.wasm.js';
import { compileWat } from '../../scripts/build-wasm.js';

/** seeded bytes in -127..127 */
function bytes(n: number, seed: number): Int8Array {
  let x = seed;
  return Int8Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 255) - 127);
}
const plain = (a: Int8Array, b: Int8Array) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

test.each([1, 15, 16, 17, 100, 1344])('dot products of %i components equal the plain sums, in SIMD and in JavaScript', (dims) => {
  const vectors = Array.from({ length: 37 }, (_, i) => bytes(dims, i + 1));
  const query = bytes(dims, 999);
  for (const simd of [true, false]) {
    const rows = Int8Rows.of(vectors, dims, simd);
    expect(Array.from(rows.dots(query))).toEqual(vectors.map((v) => plain(v, query)));
  }
});

test('the extremes do not overflow: 1,344 components of ±127', () => {
  const rows = Int8Rows.of([new Int8Array(1344).fill(127), new Int8Array(1344).fill(-127)], 1344);
  expect(Array.from(rows.dots(new Int8Array(1344).fill(-127)))).toEqual([-127 * 127 * 1344, 127 * 127 * 1344]);
});

test('rows are views of the memory; a shorter vector or query is zero-padded; a longer one is refused', () => {
  const rows = Int8Rows.of([Int8Array.from([1, 2, 3]), Int8Array.from([4, 5])], 3);
  expect(Array.from(rows.row(1))).toEqual([4, 5, 0]);
  rows.set(1, Int8Array.from([7]));
  expect(Array.from(rows.row(1))).toEqual([7, 0, 0]);
  expect(Array.from(rows.dots(Int8Array.from([1, 1])))).toEqual([3, 7]);
  expect(() => rows.set(0, new Int8Array(4))).toThrow(RangeError);
  expect(() => rows.dots(new Int8Array(4))).toThrow(RangeError);
  expect(Array.from(new Int8Rows(0, 8).dots(new Int8Array(8)))).toEqual([]);
});

test('the committed module is int8-dots.wat compiled (npm run build:wasm)', async () => {
  expect(Buffer.from(await compileWat()).toString('base64')).toBe(INT8_DOTS_WASM);
});
