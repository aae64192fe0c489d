// lib/vision: image loading, object detection, image embeddings and crops. No GraphQL, no HTTP:
// the AI service's image endpoints and the catalog's product-photo features build on it.
// README.md in this folder describes the API.
export { COCO_LABELS, type CocoLabel } from './coco-labels.js';
export { VisionError, type VisionErrorKind } from './errors.js';
export { clampBox, crop, DEFAULT_MAX_IMAGE_BYTES, DEFAULT_MAX_IMAGE_PIXELS, loadImage, rgbPixels, type ImageSource, type LoadImageOptions, type VisionImage } from './image.js';
export { iou, nonMaxSuppression, SAME_THING_IOU, suppressAcrossClasses, type Box } from './nms.js';
export { combine, cosine, DETECT_MIN_CONFIDENCE, EMBEDDING_COLOUR_WEIGHT, EMBEDDING_DIMENSIONS, Vision, VISION_METHODS, VisionWorkers, type AdultScores, type DetectedObject, type DetectOptions, type VisionOptions } from './vision.js';
