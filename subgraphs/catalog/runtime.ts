// What the catalog's services need from their process besides the request: the master-key SecretBox
// that seals webhook secrets, the private-network switch of the URL guard, the webhook outbox
// (lib/webhooks), the image store and the vision models (lib/vision). Built once when the subgraph
// starts (SubgraphDefinition.runtime), handed to every request as `ctx.runtime` and to the workers
// as `deps.runtime`.
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { WorkerDeps } from '../../lib/subgraph.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import { Vision, VisionWorkers } from '../../lib/vision/index.js';
import { openImageStore, type ImageStore } from './images/image.store.js';
import { PageBounds } from './products/product.page-bounds.js';
import { PartitionVectors } from './vision/vector-cache.js';

/** The catalog's PostgreSQL schema (where its job and outbox tables live). */
export const CATALOG_SCHEMA = 'catalog';

export interface CatalogRuntime {
  secrets: SecretBox;
  allowPrivate: boolean;
  /** the outbox and its delivery job kind, run by the catalog's default job worker (events/webhook.module.ts) */
  webhooks: WebhookRuntime;
  /** product images: the object store, public base URL and upload secret */
  images: ImageStore;
  /**
   * CenterNet and MobileNetV2 in worker threads (lib/vision), for object detection on product files,
   * the image-embedding job and visual search. Each model loads on its first call (CenterNet 1–3 s,
   * MobileNetV2 5–10 s), so a process that never sees a product photo pays nothing.
   */
  vision: Vision;
  /** visual search: the partitions' image vectors kept between searches (version-checked per search) */
  vectors: PartitionVectors;
  /** the product list's kept sort keys for deep pages (version-checked per page) */
  pageBounds: PageBounds;
}

export async function createCatalogRuntime(deps: WorkerDeps): Promise<CatalogRuntime> {
  const log = deps.log.child({ component: 'catalog-runtime' });
  const secrets = masterSecretBox(deps.cfg, log);
  const allowPrivate = deps.cfg.allowPrivateNetworkFetch;
  const webhooks = new WebhookRuntime({
    schema: CATALOG_SCHEMA,
    service: 'catalog',
    secrets,
    allowPrivate,
    log,
    sql: toSql(deps.orm.em.fork()),
    maxAttempts: deps.cfg.webhookMaxAttempts,
    retryBaseMs: deps.cfg.webhookRetryBaseMs,
    pollMs: deps.cfg.webhookPollMs,
  });
  const images = await openImageStore(deps.cfg); // an unusable store stops start-up with one line
  // one CenterNet pass per image: visual search's thresholds (vision.rules.ts) were set on one view's
  // scores, and flip averaging lowers the collage dog's "cat" from 0.46 to 0.40, below DETECT_FOR_SEARCH
  // one pair of model workers with the AI service when both run in one process (lib/process-shared.ts)
  const vision = new Vision({ preloadDetector: false, flipAveraging: false }, deps.shared?.get('vision', () => new VisionWorkers()));
  return { secrets, allowPrivate, webhooks, images, vision, vectors: new PartitionVectors(deps.cfg.catalogVectorCacheMb * 1024 * 1024), pageBounds: new PageBounds() };
}
