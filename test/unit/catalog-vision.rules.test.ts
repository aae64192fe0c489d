// Pure rules of the catalog's vision features: the suggested crop box, which objects are embedded,
// crop file names, the stored vector format and the exact scan.
import { cropFile, parseImageFile } from '../../subgraphs/catalog/images/image.rules.js';
import { Int8Rows } from '../../lib/int8-vectors/int8-rows.js';
import { CHUNK_ROWS, chunked, dot, fromBytes, quantize, rescore, rowKey, scan, shortlistSize, toBytes, type IndexedVector } from '../../subgraphs/catalog/vision/scan.calc.js';
import { suppressAcrossClasses } from '../../lib/vision/nms.js';
import { embeddableObjects, suggestedCropBox } from '../../subgraphs/catalog/vision/vision.rules.js';

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const row = (productId: string, imageId: string, region: number, v: number[], label: string | null = null): IndexedVector => ({ productId, imageId, region, rotation: 0, label, ...quantize(unit(v)) });

describe('suggested crop', () => {
  test('the box widened by 5 % a side, in whole pixels', () => {
    expect(suggestedCropBox({ x: 100, y: 100, width: 200, height: 100 }, { width: 1000, height: 1000 })).toEqual({ x: 90, y: 95, width: 220, height: 110 });
  });
  test('clamped to the image', () => {
    expect(suggestedCropBox({ x: 0, y: 5, width: 640, height: 470 }, { width: 640, height: 480 })).toEqual({ x: 0, y: 0, width: 640, height: 480 });
  });
  test('objects narrower or lower than 32 px are not embedded', () => {
    const objs = [{ bbox: { x: 0, y: 0, width: 31, height: 100 } }, { bbox: { x: 0, y: 0, width: 32, height: 32 } }];
    expect(embeddableObjects(objs)).toEqual([objs[1]]);
  });
});

describe('one object per thing', () => {
  test('a second class on the same box (car and truck) is dropped, the surer kept; separate things stay', () => {
    const car = { label: 'car', confidence: 0.56, bbox: { x: 460, y: 70, width: 230, height: 100 } };
    const truck = { label: 'truck', confidence: 0.41, bbox: { x: 462, y: 72, width: 226, height: 98 } };
    const dog = { label: 'dog', confidence: 0.43, bbox: { x: 125, y: 208, width: 188, height: 334 } };
    expect(suppressAcrossClasses([truck, dog, car])).toEqual([car, dog]);
  });
});

describe('crop files', () => {
  test('named after the box with the extension of the type; served as a crop', () => {
    const name = cropFile({ x: 1, y: 22, width: 333, height: 4444 }, 'image/jpeg');
    expect(name).toBe('crop-1-22-333-4444.jpg');
    expect(parseImageFile(name, 'image/png')).toEqual({ kind: 'crop', contentType: 'image/jpeg' });
    expect(parseImageFile('crop-1-2-3.jpg', 'image/png')).toBeNull();
    expect(parseImageFile('crop-1-2-3-4.gif', 'image/png')).toBeNull();
    expect(parseImageFile('crop-../x-1-2-3.jpg', 'image/png')).toBeNull();
  });
});

describe('stored vectors', () => {
  test('float32 little-endian bytes and back, exactly', () => {
    const v = Float32Array.from([0.5, -1.25, 3.0e-8, 1]);
    const b = toBytes(v);
    expect(b.length).toBe(16);
    expect(b.readFloatLE(4)).toBe(-1.25);
    expect(fromBytes(b)).toEqual(v);
    expect(fromBytes(b.subarray(4))).toEqual(v.subarray(1)); // an unaligned slice reads the same
  });
});

describe('the scan', () => {
  const rows = [
    row('p1', 'i1', 0, [1, 0, 0]),
    row('p1', 'i1', 1, [0, 1, 0], 'dog'),
    row('p2', 'i2', 0, [0.7, 0.7, 0]),
    row('p3', 'i3', 0, [0, 0, 1]),
  ];
  test('a product scores its best region; best first; top k', () => {
    const [hits] = scan(chunked(rows), [unit([0, 1, 0])], 2);
    expect(hits.map((h) => [h.productId, h.region, h.label])).toEqual([
      ['p1', 1, 'dog'],
      ['p2', 0, null],
    ]);
    expect(hits[0].score).toBeCloseTo(1, 3);
  });
  test('several queries in one pass, each ranked on its own', () => {
    const [a, b] = scan(chunked(rows), [unit([0, 0, 1]), unit([1, 0.1, 0])], 1);
    expect(a[0].productId).toBe('p3');
    expect(b[0].productId).toBe('p1');
  });
  test('only the rows of the given products (the active ones) are compared', () => {
    const [hits] = scan(chunked(rows), [unit([0, 1, 0])], 5, new Set(['p2', 'p3']));
    expect(hits.map((h) => h.productId)).toEqual(['p2', 'p3']);
  });
  test('ties are broken by product id; no rows, no hits', () => {
    const tie = scan(chunked([row('b', 'x', 0, [1, 0]), row('a', 'y', 0, [1, 0])]), [unit([1, 0])], 5)[0];
    expect(tie.map((h) => h.productId)).toEqual(['a', 'b']);
    expect(scan(chunked([]), [unit([1, 0])], 5)).toEqual([[]]);
  });
});

describe('8-bit vectors and rescoring', () => {
  /** a seeded unit vector of the embedding's length */
  const random = (seed: number) => {
    let x = seed;
    const v = Float32Array.from({ length: 1344 }, () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5);
    const n = Math.hypot(...v);
    return v.map((c) => c / n);
  };

  test('a component rounds to the nearest step of its vector; a zero vector stays zero', () => {
    const { codes, scale } = quantize(Float32Array.from([0.5, -0.3, 0.001, -0.5]));
    expect(scale).toBeCloseTo(0.5 / 127, 9);
    expect([...codes]).toEqual([127, -76, 0, -127]);
    expect([...quantize(new Float32Array(3)).codes]).toEqual([0, 0, 0]);
  });

  test('on unit vectors of 1,344 components the estimated cosine (both sides in 8 bits) errs by under 0.003', () => {
    const vs = Array.from({ length: 200 }, (_, i) => random(i + 1));
    const block = Int8Rows.of(vs.map((v) => quantize(v).codes), 1344);
    let worst = 0;
    for (let j = 0; j < 20; j++) {
      const q = random(j + 1000);
      const { codes, scale } = quantize(q);
      const dots = Array.from(block.dots(codes));
      vs.forEach((v, i) => (worst = Math.max(worst, Math.abs(dots[i] * quantize(v).scale * scale - dot(v, q)))));
    }
    expect(worst).toBeLessThan(0.003);
  });

  test('shortlist then rescore answers the exact top k, with exact scores, over 3,000 rows', () => {
    const vectors = Array.from({ length: 3000 }, (_, i) => random(i + 5000));
    const rows = vectors.map((v, i): IndexedVector => ({ productId: `p${Math.floor(i / 3)}`, imageId: `i${i}`, region: 0, rotation: 0, label: null, ...quantize(v) }));
    const exact = new Map(vectors.map((v, i) => [rowKey({ imageId: `i${i}`, region: 0 }), v]));
    for (const seed of [1, 2, 3]) {
      // a query near one row, so the top is not all noise
      const q = random(seed);
      const near = vectors[seed * 100].map((c, j) => c + q[j] * 0.8);
      const n = Math.hypot(...near);
      const query = near.map((c) => c / n);
      const k = 10;
      const [got] = rescore(scan(chunked(rows), [query], shortlistSize(k)), [query], exact, k);
      const truth = new Map<string, number>();
      vectors.forEach((v, i) => truth.set(`p${Math.floor(i / 3)}`, Math.max(truth.get(`p${Math.floor(i / 3)}`) ?? -2, dot(v, query))));
      const want = [...truth].sort((a, b) => b[1] - a[1]).slice(0, k);
      expect(got.map((h) => h.productId)).toEqual(want.map(([p]) => p));
      got.forEach((h, j) => expect(h.score).toBeCloseTo(want[j][1], 6));
    }
  });

  test('rows in several chunks scan as in one (CHUNK_ROWS apart)', () => {
    const vectors = Array.from({ length: CHUNK_ROWS * 2 + 5 }, (_, i) => random(i + 9000));
    const rows = vectors.map((v, i): IndexedVector => ({ productId: `p${i % 700}`, imageId: `i${i}`, region: 0, rotation: 0, label: null, ...quantize(v) }));
    const parts = chunked(rows);
    expect(parts.map((c) => c.rows.length)).toEqual([CHUNK_ROWS, CHUNK_ROWS, 5]);
    const q = random(77);
    const whole = [{ rows, block: Int8Rows.of(rows.map((r) => r.codes), 1344) }];
    expect(scan(parts, [q], 20)).toEqual(scan(whole, [q], 20));
  });

  test('a shortlisted row without its exact vector (its image deleted since) is dropped', () => {
    const rows = [row('p1', 'i1', 0, [1, 0]), row('p2', 'i2', 0, [0.9, 0.1])];
    const [hits] = rescore(scan(chunked(rows), [unit([1, 0])], 10), [unit([1, 0])], new Map([['i2/0', unit([0.9, 0.1])]]), 10);
    expect(hits.map((h) => h.productId)).toEqual(['p2']);
  });
});
