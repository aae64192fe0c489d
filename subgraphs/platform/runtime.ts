// What the platform services need from their process besides the request: the master-key
// SecretBox, the object store, the configuration, the webhook outbox and sender (lib/webhooks), and
// what recording account events needs from them (outbox: sealing, attempt limit, waking the
// sender after a commit), and the recorder itself (accountEvents: how the account aggregate records
// its events without importing notifications/, which reads accounts). Built once when the subgraph starts (SubgraphDefinition.runtime), handed
// to every request as `ctx.runtime` and to the workers as `deps.runtime`; a missing MASTER_KEY in
// production stops start-up.
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import type { OutboxDeps } from './notifications/outbox-deps.js';
import { accountEventRecorder, type AccountEventRecorder } from './notifications/account-events.js';
import { openRateLimiter } from '../../lib/redis-fallback.js';
import { PublicTransferLimits, publicTransferLimitsFromEnv } from './data-transfers/public-limits.js';

export interface PlatformRuntime {
  cfg: Config;
  log: Logger;
  secrets: SecretBox;
  objects: ObjectStore;
  webhooks: WebhookRuntime;
  /** what recording account events needs: sealing, the attempt limit, and waking the sender */
  outbox: OutboxDeps;
  /** records an account event in the caller's transaction (notifications/account-events.ts) */
  accountEvents: AccountEventRecorder;
  /** per-address and per-code limits of the public data-transfer paths */
  transferLimits: PublicTransferLimits;
  /** ends what the runtime opened (the limiter's Redis connection) */
  close(): Promise<void>;
}

export async function createPlatformRuntime(deps: WorkerDeps): Promise<PlatformRuntime> {
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
    listenUrl: deps.cfg.databaseDirectUrl,
  });
  const outbox: OutboxDeps = { secrets, maxAttempts: deps.cfg.webhookMaxAttempts, kick: () => webhooks.kick() };
  const limits = await openRateLimiter(deps.cfg, log, 'data-transfer limits');
  const transferLimits = new PublicTransferLimits(limits.limiter, publicTransferLimitsFromEnv());
  return { cfg: deps.cfg, log, secrets, objects, webhooks, outbox, accountEvents: accountEventRecorder, transferLimits, close: limits.close };
}

/** The webhook sender of this process, as one of the subgraph's workers. */
export async function startWebhookSender(runtime: PlatformRuntime): Promise<Worker> {
  await runtime.webhooks.start();
  return { stop: () => runtime.webhooks.stop() };
}
