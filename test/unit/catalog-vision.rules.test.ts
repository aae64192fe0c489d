// Pure rules of the catalog's vision features: the suggested crop box, which objects are embedded,
// crop file names, the stored vector format and the exact scan.
import { cropFile, parseImageFile } from '../../subgraphs/catalog/images/image.rules.js';
import { fromBytes, scan, toBytes, type IndexedVector } from '../../subgraphs/catalog/vision/scan.calc.js';
import { suppressAcrossClasses } from '../../lib/vision/nms.js';
import { embeddableObjects, suggestedCropBox } from '../../subgraphs/catalog/vision/vision.rules.js';

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const row = (productId: string, imageId: string, region: number, v: number[], label: string | null = null): IndexedVector => ({ productId, imageId, region, rotation: 0, label, vector: unit(v) });

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

describe('exact scan', () => {
  const rows = [
    row('p1', 'i1', 0, [1, 0, 0]),
    row('p1', 'i1', 1, [0, 1, 0], 'dog'),
    row('p2', 'i2', 0, [0.7, 0.7, 0]),
    row('p3', 'i3', 0, [0, 0, 1]),
  ];
  test('a product scores its best region; best first; top k', () => {
    const [hits] = scan(rows, [unit([0, 1, 0])], 2);
    expect(hits.map((h) => [h.productId, h.region, h.label])).toEqual([
      ['p1', 1, 'dog'],
      ['p2', 0, null],
    ]);
    expect(hits[0].score).toBeCloseTo(1, 6);
  });
  test('several queries in one pass, each ranked on its own', () => {
    const [a, b] = scan(rows, [unit([0, 0, 1]), unit([1, 0.1, 0])], 1);
    expect(a[0].productId).toBe('p3');
    expect(b[0].productId).toBe('p1');
  });
  test('only the rows of the given products (the active ones) are compared', () => {
    const [hits] = scan(rows, [unit([0, 1, 0])], 5, new Set(['p2', 'p3']));
    expect(hits.map((h) => h.productId)).toEqual(['p2', 'p3']);
  });
  test('ties are broken by product id; no rows, no hits', () => {
    const tie = scan([row('b', 'x', 0, [1, 0]), row('a', 'y', 0, [1, 0])], [unit([1, 0])], 5)[0];
    expect(tie.map((h) => h.productId)).toEqual(['a', 'b']);
    expect(scan([], [unit([1, 0])], 5)).toEqual([[]]);
  });
});
