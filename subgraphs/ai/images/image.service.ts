// Image analysis (ai.md, Image analysis and Moderation) on lib/vision. Every call is admitted (key,
// ai:read, registered user, requests and images per minute: limits.service.ts admitImageCall) before
// the image is fetched; the image comes by URL through the kernel's URL guard.
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { COCO_LABELS, DETECT_MIN_CONFIDENCE, loadImage, VISION_METHODS, VisionError, type VisionImage } from '../../../lib/vision/index.js';
import type { AiContext } from '../context.js';
import { admitImageCall } from '../limits/limits.service.js';
import { announceFlagged } from '../moderation/moderation.events.js';
import type { ImageClassifyInput, ImageModerationInput, ObjectDetectInput } from './image.inputs.js';
import type { ImageClassifyResult, ImageModerationCategory, ImageModerationResult, ObjectDetectResult } from './image.types.js';

export const IMAGE_MODELS = {
  classify: 'centernet-coco80-tags',
  detect: 'centernet-coco80',
  adult: 'nsfwjs-mobilenetv2',
} as const;
export const LABEL_SET = 'coco-80';
/** Detector candidates at or above this score become classification labels. */
export const CLASSIFY_FLOOR = 0.2;

export const IMAGE_MODERATION_CATEGORIES = ['adult', 'violence', 'hate'] as const;
type ImageCategory = (typeof IMAGE_MODERATION_CATEGORIES)[number];
/** Categories with an offline method; the others are reported unavailable, never scored. */
const ASSESSED: readonly ImageCategory[] = ['adult'];

/** Map lib/vision's failures to the AI service's codes, naming image_url. */
export function visionFailure(e: unknown): never {
  if (!(e instanceof VisionError)) throw e;
  const parameter = 'imageUrl';
  switch (e.kind) {
    case 'invalid_image_format':
      throw new DomainError('invalid_image_format', `${e.message}; supported formats: jpg, png, gif, webp`, { parameter });
    case 'image_too_large':
      throw new DomainError('PAYLOAD_TOO_LARGE', e.message, { parameter });
    case 'model_unavailable':
      throw new DomainError('model_unavailable', `${e.message}. The vision models ship in node_modules (@vladmandic/human, nsfwjs): reinstall them with npm ci and restart the AI service.`);
    default:
      throw new DomainError('VALIDATION_FAILED', e.message, { parameter });
  }
}

/** Admit the call, then fetch and decode the image (URL guard, 10 MiB, 10 s, formats by magic bytes). */
export async function admitAndLoad(ctx: AiContext, imageUrl: string): Promise<VisionImage> {
  await admitImageCall(ctx);
  return load(ctx, imageUrl);
}

async function load(ctx: AiContext, imageUrl: string): Promise<VisionImage> {
  if (!imageUrl?.trim()) throw new DomainError('VALIDATION_FAILED', 'image_url must not be empty', { parameter: 'imageUrl' });
  return loadImage({ url: imageUrl.trim() }, { allowPrivate: ctx.runtime.allowPrivateNetwork }).catch(visionFailure);
}

function checkRange(value: number | null | undefined, min: number, max: number, parameter: string, integer: boolean): void {
  if (value === null || value === undefined) return;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new DomainError('VALIDATION_FAILED', `${parameter} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, { parameter });
  }
}

export async function classifyImage(ctx: AiContext, input: ImageClassifyInput): Promise<ImageClassifyResult> {
  checkRange(input.maxLabels, 1, COCO_LABELS.length, 'maxLabels', true);
  const image = await admitAndLoad(ctx, input.imageUrl);
  const objects = await ctx.runtime.vision.detect(image, { minConfidence: CLASSIFY_FLOOR, maxObjects: 100 }).catch(visionFailure);
  // a label's confidence is its best detection's score: "the image shows a dog" is as sure as the surest dog
  const best = new Map<string, number>();
  for (const o of objects) best.set(o.label, Math.max(best.get(o.label) ?? 0, o.confidence));
  const labels = [...best].map(([label, confidence]) => ({ label, confidence })).sort((a, b) => b.confidence - a.confidence);
  return { id: newId('icl'), labels: labels.slice(0, input.maxLabels ?? 5), labelSet: LABEL_SET, model: IMAGE_MODELS.classify };
}

export async function detectObjects(ctx: AiContext, input: ObjectDetectInput): Promise<ObjectDetectResult> {
  checkRange(input.minConfidence, 0, 1, 'minConfidence', false);
  checkRange(input.maxObjects, 1, 100, 'maxObjects', true);
  const image = await admitAndLoad(ctx, input.imageUrl);
  const objects = await ctx.runtime.vision.detect(image, { minConfidence: input.minConfidence ?? DETECT_MIN_CONFIDENCE, maxObjects: input.maxObjects ?? 20 }).catch(visionFailure);
  return {
    id: newId('det'),
    objects: objects.map((o) => ({ label: o.label, confidence: o.confidence, boundingBox: o.bbox })),
    width: image.width,
    height: image.height,
    model: IMAGE_MODELS.detect,
  };
}

export async function moderateImage(ctx: AiContext, input: ImageModerationInput): Promise<ImageModerationResult> {
  const requested = [...new Set((input.categories ?? []).map((c) => c.toLowerCase()))];
  const unknown = requested.filter((c) => !(IMAGE_MODERATION_CATEGORIES as readonly string[]).includes(c));
  if (unknown.length) throw new DomainError('VALIDATION_FAILED', `categories: unknown ${unknown.join(', ')}; known: ${IMAGE_MODERATION_CATEGORIES.join(', ')}`, { parameter: 'categories' });
  const categories = (requested.length ? requested : [...IMAGE_MODERATION_CATEGORIES]) as ImageCategory[];
  const unavailable = categories.filter((c) => !ASSESSED.includes(c));
  await admitImageCall(ctx);
  if (unavailable.length === categories.length) {
    throw new DomainError(
      'model_unavailable',
      `No offline model judges ${unavailable.join(' or ')} in images (npm and Debian ship none); only adult content is assessed. Ask for categories: ["adult"].`,
      { parameter: 'categories' },
    );
  }
  const image = await load(ctx, input.imageUrl);
  const s = await ctx.runtime.vision.adultContent(image).catch(visionFailure);
  // explicit classes count fully, "sexy" (suggestive, not explicit) half
  const adult = round(Math.min(1, s.porn + s.hentai + 0.5 * s.sexy));
  const out: Partial<Record<ImageCategory, ImageModerationCategory>> = {};
  for (const c of categories) out[c] = c === 'adult' ? { flagged: adult >= 0.5, score: adult, available: true } : { flagged: false, score: null, available: false };
  const action = adult >= 0.8 ? 'block' : adult >= 0.5 ? 'review' : 'allow';
  const result: ImageModerationResult = { id: newId('imd'), flagged: action !== 'allow', categories: out, action, unavailableCategories: unavailable, model: IMAGE_MODELS.adult };
  if (result.flagged) await announceFlagged(ctx, { id: result.id, content: 'image', action, categories: out, model: result.model });
  return result;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

export const IMAGE_METHOD_NAMES = VISION_METHODS;
