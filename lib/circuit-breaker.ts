// Calls to a server the operator runs (a model server, say): a failure that may pass (network,
// timeout, HTTP 429/5xx) is retried after a short backoff; after `failures` calls in a row fail
// for good, the breaker opens and calls fail at once for `openMs`, then one trial call is let
// through (half-open) and its outcome closes or re-opens it. State is per process: each replica
// learns for itself that the server is down, which costs at most `failures` slow calls each.
import { systemClock, type Clock } from './clock.js';

export interface BreakerOptions {
  /** failed calls in a row that open the breaker */
  failures: number;
  /** how long an open breaker refuses calls before a trial call */
  openMs: number;
  /** extra attempts of a call whose failure may pass */
  retries: number;
  /** backoff before retry n (1-based): backoffMs × n */
  backoffMs: number;
  clock?: Clock;
}

/** Thrown without calling when the breaker is open. */
export class BreakerOpenError extends Error {
  constructor(
    readonly service: string,
    readonly retryInMs: number,
  ) {
    super(`${service} failed repeatedly; calls are paused for another ${Math.ceil(retryInMs / 1000)} s`);
    this.name = 'BreakerOpenError';
  }
}

export class CircuitBreaker {
  private failed = 0;
  private openUntil = 0;
  private readonly clock: Clock;

  constructor(
    readonly name: string,
    private readonly opts: BreakerOptions,
  ) {
    this.clock = opts.clock ?? systemClock;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.failed < this.opts.failures) return 'closed';
    return this.clock.now().getTime() < this.openUntil ? 'open' : 'half-open';
  }

  /** `call` with retries while `retryable(error)`, through the breaker. */
  async run<T>(call: () => Promise<T>, retryable: (e: unknown) => boolean): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.state === 'open') throw new BreakerOpenError(this.name, this.openUntil - now);
    const trial = this.state === 'half-open';
    for (let attempt = 0; ; attempt++) {
      try {
        const v = await call();
        this.failed = 0;
        return v;
      } catch (e) {
        if (!trial && attempt < this.opts.retries && retryable(e)) {
          await new Promise((r) => setTimeout(r, this.opts.backoffMs * (attempt + 1)));
          continue;
        }
        if (retryable(e)) {
          this.failed = Math.max(this.failed + 1, trial ? this.opts.failures : 0);
          if (this.failed >= this.opts.failures) this.openUntil = this.clock.now().getTime() + this.opts.openMs;
        }
        throw e;
      }
    }
  }
}
