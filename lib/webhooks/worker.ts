// The sender loop of a subgraph process: claims due deliveries of its schema (any number of
// replicas may run it: claims use FOR UPDATE SKIP LOCKED with a lease), sends them, records the
// outcome. kick() after a commit that wrote deliveries sends them at once; the poll finds the rest
// (retries coming due, rows written by another process).
import type { Logger } from '../logger.js';
import { claimDue, recordAttempt, send, type ClaimedDelivery, type SenderConfig } from './delivery.js';
import type { Sql } from './sql.js';

export interface WorkerConfig extends SenderConfig {
  /** how often to look for due deliveries when not kicked */
  pollMs: number;
  /** deliveries claimed per round (default 20) */
  batch?: number;
}

export class WebhookWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private again = false;

  constructor(
    private readonly sql: Sql,
    private readonly cfg: WorkerConfig,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Look for due deliveries now (after a commit that wrote some). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private run(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain()
      .then(() => undefined)
      .catch((e) => this.log.error('webhook delivery round failed', { err: e }))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        this.schedule(this.again ? 0 : this.cfg.pollMs);
        this.again = false;
      });
  }

  /** Send everything due, batch after batch. Returns how many deliveries were attempted. */
  async drain(): Promise<number> {
    const batch = this.cfg.batch ?? 20;
    const leaseMs = (this.cfg.timeoutMs ?? 10_000) * 2 + 5_000;
    let total = 0;
    for (;;) {
      const claimed = await claimDue(this.sql, this.cfg.schema, batch, leaseMs);
      await Promise.all(claimed.map((d) => this.deliver(d)));
      total += claimed.length;
      if (claimed.length < batch || this.stopped) return total;
    }
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const r = await send(this.cfg, d);
    try {
      const state = await recordAttempt(this.sql, this.cfg, d, r);
      if (state !== 'delivered') this.log.info('webhook delivery failed', { delivery: d.id, attempt: d.attempts, status: r.status, error: r.error, state });
    } catch (e) {
      this.log.error('webhook attempt not recorded; the lease will expire and it is sent again', { delivery: d.id, err: e });
    }
  }
}
