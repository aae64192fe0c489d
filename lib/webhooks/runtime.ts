// One object per subgraph process bundling what its webhooks need: where the tables are, the
// master-key SecretBox, the retry policy and the sender loop. Built in the subgraph's workers
// (SubgraphDefinition.workers) and handed to its services through their context or runtime.
import type { SecretBox } from '../crypto.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { emitToEndpoints, enqueueDelivery, type EndpointEvent, type OutboxConfig, type TargetDelivery } from './outbox.js';
import type { Sql, SqlSource } from './sql.js';
import { WebhookWorker, type WorkerConfig } from './worker.js';

export interface WebhookRuntimeOptions {
  /** the subgraph's PostgreSQL schema */
  schema: string;
  /** names the sender: User-Agent supergraph-<service>-webhooks/<version> */
  service: string;
  secrets: SecretBox;
  allowPrivate: boolean;
  log: Logger;
  /** runs the sender's statements (a pg pool, or an EntityManager's connection) */
  sql: Sql;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  jitter?: number;
  timeoutMs?: number;
  signatureHeaders?: string[];
  /** send in this process (false: an API-only replica writes deliveries, others send them) */
  send?: boolean;
}

export class WebhookRuntime {
  readonly outbox: OutboxConfig & { secrets: SecretBox };
  private readonly worker?: WebhookWorker;

  constructor(o: WebhookRuntimeOptions) {
    this.outbox = { schema: o.schema, maxAttempts: o.maxAttempts, secrets: o.secrets };
    const cfg: WorkerConfig = {
      schema: o.schema,
      secrets: o.secrets,
      allowPrivate: o.allowPrivate,
      userAgent: `supergraph-${o.service}-webhooks/${VERSION}`,
      signatureHeaders: o.signatureHeaders,
      retryBaseMs: o.retryBaseMs,
      jitter: o.jitter,
      timeoutMs: o.timeoutMs,
      pollMs: o.pollMs,
    };
    if (o.send !== false) this.worker = new WebhookWorker(o.sql, cfg, o.log.child({ component: `${o.service}-webhooks` }));
  }

  /** Queue `e` for the owner's subscribed endpoints, in the transaction `tx` belongs to. */
  emit(tx: SqlSource, e: EndpointEvent): Promise<number> {
    return emitToEndpoints(tx, this.outbox, e);
  }

  /** Queue one delivery to a target the caller names, in the transaction `tx` belongs to. */
  enqueue(tx: SqlSource, d: TargetDelivery): Promise<string> {
    return enqueueDelivery(tx, this.outbox, d);
  }

  /** After the commit that wrote deliveries: send them now rather than at the next poll. */
  kick(): void {
    this.worker?.kick();
  }

  /** Send everything due now (tests, shutdown). */
  drain(): Promise<number> {
    return this.worker?.drain() ?? Promise.resolve(0);
  }

  start(): void {
    this.worker?.start();
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
  }
}
