// AI image analysis (document 2, Image analysis and moderation/image): API key + user JWT, ai:read,
// images by URL. Each call counts against the plan's requests and images per minute.
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

const base = { service: 'ai', auth: 'apiKey+jwt', scope: 'ai:read', status: 200, method: 'POST' } as const;

/** Moderation answers only the requested categories: GraphQL's nulls for the others are dropped. */
function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}

export const AI_IMAGE_ROUTES: Route[] = [
  {
    ...base,
    path: '/ai/v1/image/classify',
    operation: 'ImageClassify',
    summary: 'Labels of an image with confidence (the 80 COCO object classes, from the CenterNet detector)',
    body: { type: 'image_classify_requests', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('image_classify_results', d.imageClassify) }),
    responseType: 'image_classify_results',
  },
  {
    ...base,
    path: '/ai/v1/image/detect',
    operation: 'ImageDetect',
    summary: 'Objects (80 COCO classes) with confidence and bounding boxes in pixels (CenterNet)',
    body: { type: 'object_detect_requests', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('object_detect_results', d.imageDetect) }),
    responseType: 'object_detect_results',
  },
  {
    ...base,
    path: '/ai/v1/image/ocr',
    operation: 'ImageOcr',
    summary: 'Text of an image: lines with confidence and boxes, language, orientation (Tesseract + PaddleOCR)',
    body: { type: 'ocr_requests', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('ocr_results', d.imageOcr) }),
    responseType: 'ocr_results',
  },
  {
    ...base,
    path: '/ai/v1/moderation/image',
    operation: 'ModerateImage',
    summary: 'Moderate an image: adult content scored (nsfwjs); violence and hate reported unavailable',
    body: { type: 'image_moderation_requests', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('image_moderation_results', { ...d.moderateImage, categories: withoutNulls(d.moderateImage.categories) }) }),
    responseType: 'image_moderation_results',
  },
];
