// What the platform services need from their process besides the request context: the master-key
// SecretBox, the object store, the upload-URL secret and the webhook delivery worker. Built once
// when the subgraph starts (startPlatformRuntime, the first of the definition's `workers`) and read
// by services through platformRuntime(); a missing MASTER_KEY in production stops start-up.
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
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
  if (!current) throw new Error('platform runtime not started: startPlatformRuntime() runs at subgraph start');
  return current;
}

/** The runtime when this process started one (the subgraph); undefined in a process that only opened the database (tests, scripts). */
export function platformRuntimeIfStarted(): PlatformRuntime | undefined {
  return current;
}

export async function startPlatformRuntime(deps: WorkerDeps): Promise<Worker> {
  const log = deps.log.child({ component: 'platform-runtime' });
  const secrets = masterSecretBox(deps.cfg, log);
  const objects = await openObjectStore(deps.cfg); // a missing bucket stops start-up with one line
  const worker = new DeliveryWorker(deps.orm, { cfg: deps.cfg, log: log.child({ component: 'webhook-worker' }), secrets });
  const runtime: PlatformRuntime = { cfg: deps.cfg, log, secrets, objects, worker };
  current = runtime;
  worker.start();
  return {
    async stop() {
      await worker.stop();
      if (current === runtime) current = undefined;
    },
  };
}
