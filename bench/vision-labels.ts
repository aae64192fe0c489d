// Investigation (issue 31 item 6, the horse in darknet's person.jpg): the labels CenterNet gives every
// darknet sample photo as the product detects them (one label per box, DETECT_MIN_CONFIDENCE), and
// the class probabilities of CenterNet's heatmap (tower_0/keypoints, 80 sigmoids on a 128×128 grid)
// at each kept box's centre: on the image alone, and averaged with the horizontally flipped image
// (test-time augmentation), and what the product answers with flip averaging (lib/vision/models.ts)
// and without it, so the change can be judged on every sample.
// Run: node --import @swc-node/register/esm-register bench/vision-labels.ts [dir]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import sharp from 'sharp';
import { COCO_LABELS } from '../lib/vision/coco-labels.js';
import { centernetFiles, CENTERNET_SIZE, wasmBackend } from '../lib/vision/models.js';
import { DETECT_MIN_CONFIDENCE, Vision } from '../lib/vision/vision.js';
import { loadImage } from '../lib/vision/image.js';

const dir = process.argv[2] ?? '/usr/share/darknet/data';
const GRID = 128;

await wasmBackend();
const files = centernetFiles();
const json = JSON.parse(readFileSync(files.json, 'utf8'));
const bin = readFileSync(files.bin);
const model = await tf.loadGraphModel(
  tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights), weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer }),
);

async function heatmap(bytes: Buffer, flip: boolean): Promise<Float32Array> {
  let img = sharp(bytes).rotate().resize(CENTERNET_SIZE, CENTERNET_SIZE, { fit: 'fill' }).removeAlpha();
  if (flip) img = img.flop();
  const rgb = await img.raw().toBuffer();
  const out = tf.tidy(() => model.execute(tf.tensor4d(Float32Array.from(rgb), [1, CENTERNET_SIZE, CENTERNET_SIZE, 3]), 'tower_0/keypoints') as tf.Tensor);
  const d = (await out.data()) as Float32Array;
  out.dispose();
  return d;
}

/** Each class's highest heatmap value within the box's central 3×3 cells (CenterNet's peak window). */
function classScores(h: Float32Array, cx: number, cy: number, mirrored: boolean): Float32Array {
  const s = new Float32Array(80);
  const gx = Math.min(GRID - 1, Math.max(0, Math.floor(cx * GRID)));
  const gy = Math.min(GRID - 1, Math.max(0, Math.floor(cy * GRID)));
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      const y = gy + dy;
      let x = gx + dx;
      if (y < 0 || y >= GRID || x < 0 || x >= GRID) continue;
      if (mirrored) x = GRID - 1 - x;
      for (let c = 0; c < 80; c++) s[c] = Math.max(s[c], h[(y * GRID + x) * 80 + c]);
    }
  return s;
}

const top = (s: Float32Array, k = 3) => [...s].map((v, c) => [c, v] as const).sort((a, b) => b[1] - a[1]).slice(0, k);
const fmt = (s: Float32Array) => top(s).map(([c, v]) => `${COCO_LABELS[c]} ${v.toFixed(3)}`).join(', ');

const vision = new Vision({ preloadDetector: true, flipAveraging: false });
const averaged = new Vision({ preloadDetector: true });
for (const f of readdirSync(dir).filter((n) => n.endsWith('.jpg')).sort()) {
  const bytes = readFileSync(join(dir, f));
  const image = await loadImage({ bytes }, { allowPrivate: false });
  const found = await vision.detect(image);
  const [h, hf] = await Promise.all([heatmap(bytes, false), heatmap(bytes, true)]);
  const list = (ds: typeof found) => ds.map((d) => `${d.label} ${d.confidence.toFixed(2)}`).join(', ') || 'nothing';
  console.log(`${f} (threshold ${DETECT_MIN_CONFIDENCE})\n  one view:      ${list(found)}\n  flip-averaged: ${list(await averaged.detect(image))}`);
  for (const d of found) {
    const cx = (d.bbox.x + d.bbox.width / 2) / image.width;
    const cy = (d.bbox.y + d.bbox.height / 2) / image.height;
    const a = classScores(h, cx, cy, false);
    const b = classScores(hf, cx, cy, true);
    const avg = a.map((v, i) => (v + b[i]) / 2);
    const relabel = COCO_LABELS[top(avg, 1)[0][0]];
    console.log(`  ${d.label.padEnd(12)} box ${JSON.stringify(d.bbox)}\n    image:   ${fmt(a)}\n    flipped: ${fmt(b)}\n    average: ${fmt(avg)}${relabel !== d.label ? `   -> relabelled ${relabel}` : ''}`);
  }
}
await vision.stop();
await averaged.stop();
