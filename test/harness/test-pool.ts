// A pg pool for a test's own queries whose end() resolves once its connections are closed.
// pg-pool's end() resolves as soon as it has asked each idle client to end, before the server has
// seen the sockets close; a test that drops its database `with (force)` right after could terminate
// a backend still open, and pg reported that as an unhandled 'error' on the pool (CI of stop 42,
// search.snapshot-chunks). Waiting for each client's 'end' removes the race without hiding errors.
import pg from 'pg';

export class TestPool extends pg.Pool {
  private readonly closed: Promise<void>[] = [];

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('connect', (client) => this.closed.push(new Promise((done) => client.once('end', () => done()))));
  }

  override async end(): Promise<void> {
    await super.end();
    await Promise.all(this.closed);
  }
}
