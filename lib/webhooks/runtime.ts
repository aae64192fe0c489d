// One object per subgraph process bundling what its webhooks need: where the tables are, the
// master-key SecretBox, the retry policy, and the job kind that sends deliveries. Built in the
// subgraph's workers (SubgraphDefinition.workers) and handed to its services through their context
// or runtime. start() runs a job worker for the delivery kind; a subgraph that runs its own job
// worker may instead list `webhooks.kind` among its kinds and not call start().
import type { SecretBox } from '../crypto.js';
import { JobWorker, type JobKind } from '../jobs/index.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { deliveryJobKind } from './delivery.job.js';
import { emitToEndpoints, enqueueDelivery, type EndpointEvent, type OutboxConfig, type OutboxTx, type TargetDelivery } from './outbox.js';
import type { Sql } from './sql.js';

export interface WebhookRuntimeOptions {
  /** the subgraph's PostgreSQL schema */
  schema: string;
  /** names the sender: User-Agent supergraph-<service>-webhooks/<version> */
  service: string;
  secrets: SecretBox;
  allowPrivate: boolean;
  log: Logger;
  /** runs the sender's statements (toSql(pool), or toSql(orm.em.fork())) */
  sql: Sql;
  /** the database URL the delivery job worker listens on (orm.config.get('clientUrl')); needed by start() */
  dbUrl?: string;
  /** DATABASE_DIRECT_URL: the sender's LISTEN connection, when dbUrl goes through a transaction pooler */
  listenUrl?: string;
  maxAttempts: number;
  /** first retry delay; doubles per attempt (the queue's backoff, ±20 % jitter, at most an hour) */
  retryBaseMs: number;
  /** the job worker's idle poll (NOTIFY wakes it at once after a commit) */
  pollMs?: number;
  timeoutMs?: number;
  signatureHeaders?: string[];
  /** send in this process (false: an API-only replica writes deliveries, others send them) */
  send?: boolean;
}

export class WebhookRuntime {
  readonly outbox: OutboxConfig & { secrets: SecretBox };
  /** the delivery job kind, for a subgraph that runs it in its own job worker */
  readonly kind: JobKind<{ deliveryId: string }>;
  private worker?: JobWorker;

  constructor(private readonly o: WebhookRuntimeOptions) {
    this.outbox = { schema: o.schema, maxAttempts: o.maxAttempts, secrets: o.secrets };
    this.kind = deliveryJobKind({
      schema: o.schema,
      secrets: o.secrets,
      allowPrivate: o.allowPrivate,
      userAgent: `supergraph-${o.service}-webhooks/${VERSION}`,
      signatureHeaders: o.signatureHeaders,
      timeoutMs: o.timeoutMs,
      retryBaseMs: o.retryBaseMs,
      sql: o.sql,
      log: o.log.child({ component: `${o.service}-webhooks` }),
    });
  }

  /** Queue `e` for the owner's subscribed endpoints, in the transaction `tx` belongs to. */
  emit(tx: OutboxTx, e: EndpointEvent): Promise<number> {
    return emitToEndpoints(tx, this.outbox, e);
  }

  /** Queue one delivery to a target the caller names, in the transaction `tx` belongs to. */
  enqueue(tx: OutboxTx, d: TargetDelivery): Promise<string> {
    return enqueueDelivery(tx, this.outbox, d);
  }

  /** After the commit that wrote deliveries: look for them now (the queue's NOTIFY usually has already). */
  kick(): void {
    this.worker?.wake();
  }

  /** Run the delivery job worker of this process (unless `send: false`). */
  async start(): Promise<void> {
    if (this.o.send === false || this.worker) return;
    if (!this.o.dbUrl) throw new Error('WebhookRuntime.start() needs dbUrl (or list webhooks.kind in the subgraph job worker)');
    this.worker = new JobWorker({ schema: this.o.schema, kinds: [this.kind], dbUrl: this.o.dbUrl, listenUrl: this.o.listenUrl, log: this.o.log, pollMs: this.o.pollMs, concurrency: 4 });
    await this.worker.start();
  }

  async stop(deadline?: number): Promise<void> {
    await this.worker?.stop(deadline);
    this.worker = undefined;
  }
}
