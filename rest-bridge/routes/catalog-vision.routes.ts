// Object detection on a product file and visual search of the products service (document 3 part A;
// docs/catalog-images.md). The visual-search photo is multipart/form-data (image, use_object_detection,
// per_page), streamed into the object store under a grant asked with the caller's key, like a product
// image upload (rest-bridge/multipart.ts); the search reads it from there and deletes it.
import { VISUAL_SEARCH_PAGE, VISUAL_SEARCH_UPLOAD } from '../contract-limits.js';
import { resource, toSnakeKeys } from '../jsonapi.js';
import { boolParam, getParam } from '../query.js';
import type { ResourceObject, Route } from '../types.js';
import { productRes } from './catalog.routes.js';

const base = { service: 'products', auth: 'apiKey' } as const;

/** One hit as a product resource with what visual search adds to it. */
function hitRes(h: Record<string, any>): ResourceObject {
  const r = productRes(h.product);
  r.attributes.similarity_score = h.similarityScore;
  r.attributes.detection_metadata = toSnakeKeys(h.detectionMetadata);
  r.attributes.matched_image = { id: h.matchedImageId, url: h.matchedImageUrl, region: h.matchedRegion };
  return r;
}

export const CATALOG_VISION_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/products/:id/files/:file_id/process',
    operation: 'ProcessProductFile',
    summary:
      'Process a product file (file_id: an image of the product): processing_mode object_detection finds the objects in it (COCO-80 classes) and stores a suggested crop of each, served under the image URL (products:write)',
    body: { type: 'product_file_processing', args: ['processingMode'], inData: true, required: ['processing_mode'] },
    variables: (r) => ({ productId: r.params.id, fileId: r.params.file_id, processingMode: r.attributes.processingMode }),
    result: (d) => ({ data: resource('product_file_processing', d.processProductFile) }),
    status: 200,
    responseType: 'product_file_processing',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/products/search',
    operation: 'VisualProductSearchUpload',
    summary:
      'Visual search: multipart/form-data with image (JPEG, PNG, WebP or GIF, at most 10 MiB), use_object_detection (default true) and per_page. 0 or 1 objects detected: one search with the whole photo; 2 or more: one search per object, results grouped per object (meta.groups). Each result is a product with similarity_score and detection_metadata (products:read)',
    query: [{ name: 'use_object_detection', type: 'boolean', description: 'default true; the form field of the same name wins' }],
    multipart: {
      ...VISUAL_SEARCH_UPLOAD,
      file: 'image',
      fields: {
        use_object_detection: { graphql: 'useObjectDetection', type: 'boolean', description: 'default true; false skips detection (one search with the whole photo)' },
        per_page: { graphql: 'perPage', type: 'integer', description: `results per search, 1–${VISUAL_SEARCH_PAGE.max} (default ${VISUAL_SEARCH_PAGE.default})` },
      },
      grant: { operation: 'PresignVisualProductSearch', variables: () => ({}), token: (d) => d.presignVisualProductSearch.token },
      refusedCode: 'VALIDATION_FAILED',
    },
    variables: (r) => {
      const fromQuery = getParam(r.query, 'use_object_detection') !== undefined ? boolParam(r.query, 'use_object_detection', true) : undefined;
      return { token: r.uploadToken, object: r.upload, useObjectDetection: fromQuery, ...r.form };
    },
    result: (d) => {
      const s = d.visualProductSearchUpload;
      return {
        data: s.results.map(hitRes),
        meta: {
          objects_detected: s.objectsDetected,
          average_detection_time: s.averageDetectionTime,
          mode: s.mode,
          use_object_detection: s.useObjectDetection,
          total: s.results.length,
          groups: s.groups.map((g: Record<string, any>) => ({ ...(toSnakeKeys(g.detection) as Record<string, unknown>), total: g.total, product_ids: g.productIds })),
          timings: { detection_ms: s.averageDetectionTime, embedding_ms: s.embeddingTimeMs, scan_ms: s.scanTimeMs, total_ms: s.totalTimeMs },
          scanned: s.scanned,
          model: s.model,
        },
      };
    },
    status: 200,
    responseType: 'products',
    list: true,
    scope: 'products:read',
  },
];
