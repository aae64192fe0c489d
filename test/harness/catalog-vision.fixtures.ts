// The security suite's fixtures of the catalog's vision routes (object detection on a product file,
// visual search): the product with one image of catalog-images.fixtures.ts for the file routes, the
// processing body, and the visual-search form (the image part is `image`, not `file`).
import type { Route } from '../../rest-bridge/types.js';
import { imageForm, imageProduct, sampleImage } from './catalog-images.fixtures.js';
import type { ParamFixture, SecTenant } from './security.js';

const PROCESS = /^\/v1\/products\/:id\/files\/:file_id\/process$/;

export const VISION_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  { path: PROCESS, param: 'id', fixture: imageProduct },
  { path: PROCESS, param: 'file_id', fixture: { value: (t) => t.extra.image, foreignCode: 'IMAGE_NOT_FOUND' } },
];

export const VISION_ROUTE_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  'POST /v1/products/:id/files/:file_id/process': () => ({ processing_mode: 'object_detection' }),
};

let query: Buffer | undefined;

/** The multipart body of a vision route; undefined for the other multipart routes. */
export async function visionRouteForm(route: Route): Promise<FormData | undefined> {
  if (`${route.method} ${route.path}` !== 'POST /v1/products/search') return undefined;
  query ??= await sampleImage('png', 96, 64);
  return imageForm(query, { use_object_detection: 'true' }, 'query.png', 'image');
}
