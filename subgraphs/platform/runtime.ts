// What the platform services need from their process besides the request: the master-key
// SecretBox, the object store, the configuration and the outbox (sealing, attempt limit, and the
// delivery worker to wake after a commit). Built once when the subgraph starts
// (SubgraphDefinition.runtime), handed to every request as `ctx.runtime` and to the workers as
// `deps.runtime`; a missing MASTER_KEY in production stops start-up.
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import { createObjectStore, type ObjectStore } from '../../lib/object-store.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import type { OutboxDeps } from './notifications/outbox-deps.js';
import { DeliveryWorker } from './notifications/delivery.worker.js';

export interface PlatformRuntime {
  cfg: Config;
  log: Logger;
  secrets: SecretBox;
  objects: ObjectStore;
  /** what recording account events needs: sealing, the attempt limit, and waking the delivery worker */
  outbox: OutboxDeps;
  deliveries: DeliveryWorker;
}

export function createPlatformRuntime(deps: WorkerDeps): PlatformRuntime {
  const log = deps.log.child({ component: 'platform-runtime' });
  const secrets = masterSecretBox(deps.cfg, log);
  const objects = createObjectStore(deps.cfg);
  const deliveries = new DeliveryWorker(deps.orm, { cfg: deps.cfg, log: log.child({ component: 'webhook-worker' }), secrets });
  const outbox: OutboxDeps = { secrets, maxAttempts: deps.cfg.webhookMaxAttempts, kick: () => deliveries.kick() };
  return { cfg: deps.cfg, log, secrets, objects, outbox, deliveries };
}

/** The webhook delivery worker of this process, as one of the subgraph's workers. */
export function startDeliveries(runtime: PlatformRuntime): Worker {
  runtime.deliveries.start();
  return { stop: () => runtime.deliveries.stop() };
}
