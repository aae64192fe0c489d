// What the platform services need from their process besides the request context: the master-key
// SecretBox, the object store, the upload-URL secret and the webhook outbox and sender (lib/webhooks). Built once
// when the subgraph starts (startPlatformRuntime, the first of the definition's `workers`) and read
// by services through platformRuntime(); a missing MASTER_KEY in production stops start-up.
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';

export interface PlatformRuntime {
  cfg: Config;
  log: Logger;
  secrets: SecretBox;
  objects: ObjectStore;
  webhooks: WebhookRuntime;
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
  const webhooks = new WebhookRuntime({
    schema: 'platform',
    service: 'platform',
    secrets,
    allowPrivate: deps.cfg.allowPrivateNetworkFetch,
    log,
    sql: toSql(deps.orm.em.fork()),
    maxAttempts: deps.cfg.webhookMaxAttempts,
    retryBaseMs: deps.cfg.webhookRetryBaseMs,
    pollMs: deps.cfg.webhookPollMs,
    dbUrl: deps.orm.config.get('clientUrl') as string,
  });
  const runtime: PlatformRuntime = { cfg: deps.cfg, log, secrets, objects, webhooks };
  current = runtime;
  await webhooks.start();
  return {
    async stop() {
      await webhooks.stop();
      if (current === runtime) current = undefined;
    },
  };
}
