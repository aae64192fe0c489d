// The two CNNs of the vision module, on TensorFlow.js with the WebAssembly backend (SIMD; 20–40×
// faster than tfjs's pure-JS CPU backend here, and no native libtensorflow download). This file runs
// inside a worker thread (vision.worker.ts); nothing here touches the main event loop.
//
// - CenterNet (COCO-80) from @vladmandic/human 3.3.6 (`models/centernet.json` + `.bin`, MIT):
//   input [1,512,512,3] float 0..255, output `tower_0/detections` [1,100,6] = x1,y1,x2,y2 (input
//   pixels), score, class index.
// - MobileNetV2 from nsfwjs 4.3.0 (MIT; weights shipped as base64 inside the package): input
//   [1,224,224,3] float 0..1. One pass gives both the 1280-d global-average-pooled features (the
//   image embedding) and the five-class adult-content head (Drawing, Hentai, Neutral, Porn, Sexy).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

export type VisionModelName = 'centernet' | 'mobilenet';

export const CENTERNET_SIZE = 512;
export const MOBILENET_SIZE = 224;

let backend: Promise<void> | undefined;

/** Select the wasm backend once per thread. */
export function wasmBackend(): Promise<void> {
  backend ??= (async () => {
    setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/');
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js wasm backend did not initialise');
    await tf.ready();
  })();
  return backend;
}

const buffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export function centernetFiles(): { json: string; bin: string } {
  const dir = join(dirname(require.resolve('@vladmandic/human')), '..', 'models');
  return { json: join(dir, 'centernet.json'), bin: join(dir, 'centernet.bin') };
}

/** CenterNet's class heatmap: 80 sigmoids per cell of a 128×128 grid (one cell per 4 input pixels). */
const GRID = 128;
const CLASSES = 80;

export class CenterNet {
  private constructor(private readonly model: tf.GraphModel) {}

  static async load(): Promise<CenterNet> {
    await wasmBackend();
    const files = centernetFiles();
    const json = JSON.parse(readFileSync(files.json, 'utf8'));
    const model = await tf.loadGraphModel(
      tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights), weightData: buffer(readFileSync(files.bin)) }),
    );
    const net = new CenterNet(model);
    // warm-up, both passes: the first run of a graph compiles its kernels
    await net.run(new Uint8Array(CENTERNET_SIZE * CENTERNET_SIZE * 3), true);
    return net;
  }

  /**
   * 100 candidate rows of 6 numbers (x1, y1, x2, y2 in input pixels, score, class) from 512×512 RGB
   * bytes. With flip averaging (test-time augmentation), each box's class and score are re-read from
   * the class heatmap at the box's centre (the best value of each class in the 3×3 cells around it,
   * CenterNet's own peak window) averaged with the heatmap of the horizontally mirrored image at the
   * mirrored centre: one more forward pass, and a label that one view's pose does not decide alone
   * (the horse in darknet's person.jpg: sheep 0.30 / horse 0.28 as seen, horse 0.36 averaged).
   * `flipAveraging` is per call, so callers that differ (the AI service averages, the catalog does
   * not) share one loaded model.
   */
  async run(rgb: Uint8Array, flipAveraging = true): Promise<Float32Array> {
    const input = tf.tensor4d(Float32Array.from(rgb), [1, CENTERNET_SIZE, CENTERNET_SIZE, 3]);
    try {
      if (!flipAveraging) return await this.read(this.model.execute(input, 'tower_0/detections') as tf.Tensor);
      const [detections, heatmap] = this.model.execute(input, ['tower_0/detections', 'tower_0/keypoints']) as tf.Tensor[];
      const mirrored = tf.tidy(() => this.model.execute(tf.reverse(input, 2), 'tower_0/keypoints') as tf.Tensor);
      const [rows, a, b] = await Promise.all([this.read(detections), this.read(heatmap), this.read(mirrored)]);
      return flipAveraged(rows, a, b);
    } finally {
      input.dispose();
    }
  }

  private async read(t: tf.Tensor): Promise<Float32Array> {
    try {
      return (await t.data()) as Float32Array;
    } finally {
      t.dispose();
    }
  }
}

/**
 * The rows with each box's class and score from the two heatmaps' average at its centre (see
 * CenterNet.run). CenterNet's rows are peaks per (cell, class): rows of other classes near the same
 * peak now read the same class from the same heatmap cell, so they are one object: the row whose own
 * class the average chose keeps it (its box was predicted for that class), else the row CenterNet
 * scored highest; the others get score 0.
 */
export function flipAveraged(rows: Float32Array, heatmap: Float32Array, mirrored: Float32Array): Float32Array {
  const out = Float32Array.from(rows);
  const byCell = new Map<number, number>();
  const cell = CENTERNET_SIZE / GRID;
  const best = new Float32Array(CLASSES);
  const bestMirrored = new Float32Array(CLASSES);
  const bestAt = new Int32Array(CLASSES);
  for (let i = 0; i + 5 < out.length; i += 6) {
    const gx = clampCell(Math.floor((out[i] + out[i + 2]) / 2 / cell));
    const gy = clampCell(Math.floor((out[i + 1] + out[i + 3]) / 2 / cell));
    best.fill(0);
    bestMirrored.fill(0);
    bestAt.fill(gy * GRID + gx);
    for (let y = Math.max(0, gy - 1); y <= Math.min(GRID - 1, gy + 1); y++) {
      for (let x = Math.max(0, gx - 1); x <= Math.min(GRID - 1, gx + 1); x++) {
        const at = (y * GRID + x) * CLASSES;
        const atMirrored = (y * GRID + (GRID - 1 - x)) * CLASSES;
        for (let c = 0; c < CLASSES; c++) {
          if (heatmap[at + c] > best[c]) [best[c], bestAt[c]] = [heatmap[at + c], y * GRID + x];
          if (mirrored[atMirrored + c] > bestMirrored[c]) bestMirrored[c] = mirrored[atMirrored + c];
        }
      }
    }
    let cls = 0;
    let score = -1;
    for (let c = 0; c < CLASSES; c++) {
      const avg = (best[c] + bestMirrored[c]) / 2;
      if (avg > score) [cls, score] = [c, avg];
    }
    const own = Math.round(rows[i + 5]) === cls;
    out[i + 4] = score;
    out[i + 5] = cls;
    const cellKey = cls * GRID * GRID + bestAt[cls];
    const kept = byCell.get(cellKey);
    if (kept === undefined) {
      byCell.set(cellKey, i);
      continue;
    }
    const keptOwn = Math.round(rows[kept + 5]) === cls;
    const replace = own !== keptOwn ? own : rows[i + 4] > rows[kept + 4];
    out[(replace ? kept : i) + 4] = 0;
    if (replace) byCell.set(cellKey, i);
  }
  return out;
}

const clampCell = (g: number) => Math.min(GRID - 1, Math.max(0, g));

export const NSFW_CLASSES = ['drawing', 'hentai', 'neutral', 'porn', 'sexy'] as const;

export class MobileNet {
  private constructor(private readonly model: tf.LayersModel) {}

  static async load(): Promise<MobileNet> {
    await wasmBackend();
    // the UMD bundles nsfwjs ships (model topology as an object, weights as one base64 string);
    // decoded with Buffer here instead of nsfwjs's per-character loop
    const dir = join(dirname(require.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2');
    const topology = require(join(dir, 'model.min.js')) as { modelTopology: unknown; weightsManifest: { weights: tf.io.WeightsManifestEntry[] }[] };
    const weights = require(join(dir, 'group1-shard1of1.min.js')) as string | { default: string };
    const weightData = buffer(Buffer.from(typeof weights === 'string' ? weights : weights.default, 'base64'));
    const full = await tf.loadLayersModel(tf.io.fromMemory({ modelTopology: topology.modelTopology as never, weightSpecs: topology.weightsManifest.flatMap((g) => g.weights), weightData }));
    // one graph with two outputs: the pooled features and the classifier head
    const model = tf.model({ inputs: full.inputs, outputs: [full.getLayer('flatten_1').output as tf.SymbolicTensor, full.outputs[0]] });
    const net = new MobileNet(model);
    await net.run(new Uint8Array(MOBILENET_SIZE * MOBILENET_SIZE * 3));
    return net;
  }

  /** Pooled features (1280) and the adult-content probabilities (5, NSFW_CLASSES order) from 224×224 RGB bytes. */
  async run(rgb: Uint8Array): Promise<{ features: Float32Array; classes: Float32Array }> {
    const outs = tf.tidy(() => this.model.predict(tf.tensor4d(Float32Array.from(rgb), [1, MOBILENET_SIZE, MOBILENET_SIZE, 3]).div(255)) as tf.Tensor[]);
    try {
      const [features, classes] = await Promise.all(outs.map((t) => t.data() as Promise<Float32Array>));
      return { features, classes };
    } finally {
      for (const t of outs) t.dispose();
    }
  }
}
