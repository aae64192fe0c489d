// What the platform services need from their process besides the request context: the master-key
// SecretBox, the object store, the upload-URL secret and the webhook delivery worker. Built once
// when the subgraph starts (startPlatformBackground, wired as SubgraphDefinition.startBackground)
// and read by services through platformRuntime(); a missing MASTER_KEY in production stops start-up.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../lib/config.js';
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { createObjectStore, type ObjectStore } from '../../lib/object-store.js';
import { DeliveryWorker } from './notifications/delivery.worker.js';

export interface PlatformRuntime {
  cfg: Config;
  log: Logger;
  secrets: SecretBox;
  objects: ObjectStore;
  worker: DeliveryWorker;
}

let current: PlatformRuntime | undefined;

export function platformRuntime(): PlatformRuntime {
  if (!current) throw new Error('platform runtime not started: startPlatformBackground() runs at subgraph start');
  return current;
}

export async function startPlatformBackground(deps: { cfg: Config; log: Logger; orm: MikroORM }): Promise<{ stop(): Promise<void> }> {
  const log = deps.log.child({ component: 'platform-runtime' });
  const secrets = masterSecretBox(deps.cfg, log);
  const objects = createObjectStore(deps.cfg);
  const worker = new DeliveryWorker(deps.orm, { cfg: deps.cfg, log: log.child({ component: 'webhook-worker' }), secrets });
  current = { cfg: deps.cfg, log, secrets, objects, worker };
  worker.start();
  return {
    async stop() {
      await worker.stop();
    },
  };
}
