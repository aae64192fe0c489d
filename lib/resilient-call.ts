// Calls to a server the operator runs (a model server): a timeout per attempt, retries with
// exponential backoff on what may pass (network errors, timeouts, HTTP 429 and 5xx), and a circuit
// breaker per server so that a server that keeps failing is not waited for on every request: after
// `failures` failed calls in a row the circuit opens and calls fail at once for `openMs`; then one
// call is let through (half-open) and its outcome closes or re-opens the circuit.
// State is per process (each replica learns about the server on its own, which is what it sees).

export interface ResilienceOptions {
  timeoutMs: number;
  /** attempts after the first */
  retries: number;
  /** first backoff; doubled per retry */
  backoffMs?: number;
  /** consecutive failed calls that open the circuit */
  failures?: number;
  openMs?: number;
  /** whether a failure may pass on retry (and counts against the breaker); default: anything but PermanentError */
  retryable?: (e: unknown) => boolean;
}

const transient = (e: unknown) => !(e instanceof PermanentError);

/** A failure that retrying does not fix (HTTP 4xx but 429, a malformed answer). */
export class PermanentError extends Error {}

/** The circuit is open: the call was not made. */
export class CircuitOpenError extends Error {}

export class CircuitBreaker {
  private failed = 0;
  private openUntil = 0;
  private trial = false;

  constructor(
    readonly name: string,
    private readonly failures = 5,
    private readonly openMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.failed < this.failures) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half-open';
  }

  /** Runs `f` unless the circuit is open (one trial at a time when half-open); failures `counts` says may pass open it. */
  async run<T>(f: () => Promise<T>, counts: (e: unknown) => boolean = transient): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trial)) {
      throw new CircuitOpenError(`${this.name}: circuit open after ${this.failed} failed calls; next try in ${Math.max(0, Math.ceil((this.openUntil - this.now()) / 1000))} s`);
    }
    this.trial = state === 'half-open';
    try {
      const v = await f();
      this.failed = 0;
      return v;
    } catch (e) {
      if (counts(e)) {
        this.failed++;
        if (this.failed >= this.failures) this.openUntil = this.now() + this.openMs;
      }
      throw e;
    } finally {
      this.trial = false;
    }
  }
}

/** `attempt(signal)` with a timeout each, retried on transient failures, inside the breaker. */
export function resilientCall<T>(breaker: CircuitBreaker, o: ResilienceOptions, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const retryable = o.retryable ?? transient;
  return breaker.run(async () => {
    let last: unknown;
    for (let i = 0; i <= o.retries; i++) {
      if (i) await new Promise((r) => setTimeout(r, (o.backoffMs ?? 100) * 2 ** (i - 1)));
      try {
        return await attempt(AbortSignal.timeout(o.timeoutMs));
      } catch (e) {
        if (!retryable(e)) throw e;
        last = (e as Error).name === 'TimeoutError' ? new Error(`no answer within ${o.timeoutMs} ms`) : e;
      }
    }
    throw last;
  }, retryable);
}

/** An HTTP status as a transient (retried) or permanent error. */
export function statusError(status: number, body: string): Error {
  const msg = `HTTP ${status}: ${body.slice(0, 200)}`;
  return status === 429 || status >= 500 ? new Error(msg) : new PermanentError(msg);
}
