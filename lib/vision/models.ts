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
    await net.run(new Uint8Array(CENTERNET_SIZE * CENTERNET_SIZE * 3)); // warm-up: the first run compiles kernels
    return net;
  }

  /** 100 candidate rows of 6 numbers (x1, y1, x2, y2 in input pixels, score, class) from 512×512 RGB bytes. */
  async run(rgb: Uint8Array): Promise<Float32Array> {
    const out = tf.tidy(() => this.model.execute(tf.tensor4d(Float32Array.from(rgb), [1, CENTERNET_SIZE, CENTERNET_SIZE, 3]), 'tower_0/detections') as tf.Tensor);
    try {
      return (await out.data()) as Float32Array;
    } finally {
      out.dispose();
    }
  }
}

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
