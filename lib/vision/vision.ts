// The vision module's models behind one object a service creates at start (no process-wide
// singleton): CenterNet in one worker thread, MobileNetV2 in another, each loaded once. The main
// thread only prepares pixels (sharp, which works on libuv's thread pool) and post-processes small
// outputs (box scaling, NMS), so a 300 ms detection never holds the event loop.
import { COCO_LABELS } from './coco-labels.js';
import { colourDescriptor, COLOUR_DIMENSIONS } from './colour.js';
import { rgbPixels, type VisionImage } from './image.js';
import { ModelWorker } from './model-worker.js';
import { CENTERNET_SIZE, MOBILENET_SIZE, NSFW_CLASSES } from './models.js';
import { nonMaxSuppression, suppressAcrossClasses, type Box } from './nms.js';

export interface DetectedObject {
  label: string;
  confidence: number;
  /** pixels of the (EXIF-oriented) image */
  bbox: Box;
}

export interface DetectOptions {
  /** drop candidates scoring below (default DETECT_MIN_CONFIDENCE) */
  minConfidence?: number;
  /** at most this many objects, best first (default 20) */
  maxObjects?: number;
  /** NMS overlap above which a weaker box of the same label is dropped (default 0.5) */
  iouThreshold?: number;
}

export type AdultScores = Record<(typeof NSFW_CLASSES)[number], number>;

export interface VisionOptions {
  /** load MobileNetV2 (embeddings, adult content) at construction, in the background (default: on first use) */
  preloadMobileNet?: boolean;
  /** load CenterNet at construction, in the background (default true) */
  preloadDetector?: boolean;
  /** label and score each box by the class probabilities averaged with the mirrored image's (default true; one more CenterNet pass) */
  flipAveraging?: boolean;
}

/** Names of the methods, for `model` fields and docs. */
export const VISION_METHODS = {
  detector: 'centernet-coco80 (@vladmandic/human 3.3.6, tfjs-wasm 4.22.0)',
  embedding: 'mobilenetv2-gap1280+rgbhist64 (nsfwjs 4.3.0 MobileNetV2 features, w=0.15 colour)',
  adult: 'nsfwjs-mobilenetv2 (nsfwjs 4.3.0)',
} as const;

/** Share of the colour descriptor in the embedding's cosine (the rest is MobileNetV2's features). */
export const EMBEDDING_COLOUR_WEIGHT = 0.15;

/**
 * Detections scoring below are dropped by default. CenterNet's flip-averaged scores on the darknet
 * photos, one label per box: real objects from 0.31 (a far person in kite.jpg; the horse behind the
 * girl in person.jpg 0.36, sheep 0.30 on the image alone) to 0.70; spurious ones below: the bin in
 * dog.jpg read as a parking meter 0.26 (0.31 on the image alone), a "bed" at 0.26 in scream.jpg.
 */
export const DETECT_MIN_CONFIDENCE = 0.28;
export const EMBEDDING_DIMENSIONS = 1280 + COLOUR_DIMENSIONS;

/**
 * The two model workers (CenterNet, MobileNetV2: each its own thread, weights and tfjs-wasm heap).
 * A Vision makes its own; subgraphs that run in one process share one pair (`Vision`'s `workers`,
 * lib/process-shared.ts), so the models load once there. Options that differ between callers (flip
 * averaging) travel with each call.
 */
export class VisionWorkers {
  readonly detector = new ModelWorker('centernet');
  readonly mobilenet = new ModelWorker('mobilenet');

  health(): Record<string, unknown> {
    return { detector: this.detector.health(), mobilenet: this.mobilenet.health() };
  }

  async stop(): Promise<void> {
    await Promise.all([this.detector.stop(), this.mobilenet.stop()]);
  }
}

export class Vision {
  private readonly workers: VisionWorkers;
  /** the workers are this Vision's own (stopped with it), not shared */
  private readonly owned: boolean;
  private readonly flipAveraging: boolean;

  /** `workers`: a pair shared with other Visions of the process (they outlive this one); default: its own */
  constructor(opts: VisionOptions = {}, workers?: VisionWorkers) {
    this.owned = !workers;
    this.workers = workers ?? new VisionWorkers();
    this.flipAveraging = opts.flipAveraging ?? true;
    if (opts.preloadDetector ?? true) void this.detector.start();
    if (opts.preloadMobileNet) void this.mobilenet.start();
  }

  /** COCO-80 objects: score ≥ minConfidence, per-label NMS, one label per box, boxes in image pixels. */
  async detect(image: VisionImage, opts: DetectOptions = {}): Promise<DetectedObject[]> {
    const minConfidence = opts.minConfidence ?? DETECT_MIN_CONFIDENCE;
    const rows = await this.detector.run<Float32Array>(await rgbPixels(image, CENTERNET_SIZE, CENTERNET_SIZE), { flipAveraging: this.flipAveraging });
    const sx = image.width / CENTERNET_SIZE;
    const sy = image.height / CENTERNET_SIZE;
    const candidates: DetectedObject[] = [];
    for (let i = 0; i + 5 < rows.length; i += 6) {
      const score = rows[i + 4];
      const label = COCO_LABELS[Math.round(rows[i + 5])];
      if (!(score >= minConfidence) || !label) continue;
      const x1 = Math.max(0, rows[i] * sx);
      const y1 = Math.max(0, rows[i + 1] * sy);
      const x2 = Math.min(image.width, rows[i + 2] * sx);
      const y2 = Math.min(image.height, rows[i + 3] * sy);
      if (x2 - x1 < 1 || y2 - y1 < 1) continue;
      const bbox = { x: Math.round(x1), y: Math.round(y1), width: Math.round(x2 - x1), height: Math.round(y2 - y1) };
      candidates.push({ label, confidence: Math.round(score * 10_000) / 10_000, bbox });
    }
    return suppressAcrossClasses(nonMaxSuppression(candidates, opts.iouThreshold ?? 0.5)).slice(0, opts.maxObjects ?? 20);
  }

  /**
   * An L2-normalised image embedding (EMBEDDING_DIMENSIONS): MobileNetV2's global-average-pooled
   * features (L2-normalised, weight 1 − w) followed by the colour histogram (weight w), so the
   * cosine of two embeddings is (1 − w)·cos(features) + w·cos(colour). See docs/ai.md (Quality) for
   * the retrieval measurement behind the choice.
   */
  async embed(image: VisionImage): Promise<Float32Array> {
    const [{ features }, colour] = await Promise.all([this.runMobileNet(image), colourDescriptor(image)]);
    return combine(features, colour, EMBEDDING_COLOUR_WEIGHT);
  }

  /** MobileNetV2 features alone (L2-normalised), for measuring and for callers that want no colour. */
  async features(image: VisionImage): Promise<Float32Array> {
    return l2(Float32Array.from((await this.runMobileNet(image)).features));
  }

  /** nsfwjs's five adult-content probabilities (they sum to 1). */
  async adultContent(image: VisionImage): Promise<AdultScores> {
    const { classes } = await this.runMobileNet(image);
    return Object.fromEntries(NSFW_CLASSES.map((c, i) => [c, classes[i]])) as AdultScores;
  }

  private async runMobileNet(image: VisionImage): Promise<{ features: Float32Array; classes: Float32Array }> {
    return this.mobilenet.run(await rgbPixels(image, MOBILENET_SIZE, MOBILENET_SIZE));
  }

  /** Start loading every model now; resolves when each has loaded or failed. */
  async ready(): Promise<void> {
    await Promise.all([this.detector.start(), this.mobilenet.start()]);
  }

  health(): Record<string, unknown> {
    return this.workers.health();
  }

  /** Stops its own workers; shared ones stop with whoever shares them (ProcessShared). */
  async stop(): Promise<void> {
    if (this.owned) await this.workers.stop();
  }

  private get detector(): ModelWorker {
    return this.workers.detector;
  }

  private get mobilenet(): ModelWorker {
    return this.workers.mobilenet;
  }
}

export function l2(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/** [√(1−w)·a/|a|, √w·b/|b|]: unit length, cosine = (1−w)·cos(a) + w·cos(b). */
export function combine(a: Float32Array, b: Float32Array, w: number): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(l2(Float32Array.from(a)).map((x) => x * Math.sqrt(1 - w)));
  out.set(l2(Float32Array.from(b)).map((x) => x * Math.sqrt(w)), a.length);
  return out;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
