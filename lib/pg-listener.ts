// One LISTEN connection to PostgreSQL with its reconnection: NOTIFY is delivered at commit to every
// process listening on the channel (no Redis needed). When the connection is lost the listener
// reconnects every second; `onReconnect` tells the owner that notifications may have been missed
// meanwhile (each owner has its own fallback: the job worker polls, the search engines re-check).
import pg from 'pg';
import type { Logger } from './logger.js';

export interface PgListenerOptions {
  dbUrl: string;
  channel: string;
  log: Logger;
  onNotify(payload: string | undefined): void;
  onReconnect?(): void;
  /** the warning logged when the connection is lost */
  lostMessage?: string;
}

export class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private lost = false;

  constructor(private o: PgListenerOptions) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.dbUrl });
    client.on('notification', (n) => this.o.onNotify(n.payload));
    client.on('error', (err) => {
      this.o.log.warn(this.o.lostMessage ?? 'listener lost its connection; reconnecting', { channel: this.o.channel, err });
      this.client = undefined;
      this.lost = true;
      setTimeout(() => void (this.stopped ? undefined : this.start().catch(() => undefined)), 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${this.o.channel}`);
    if (this.stopped) {
      await client.end();
      return;
    }
    this.client = client;
    if (this.lost) {
      this.lost = false;
      this.o.onReconnect?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
