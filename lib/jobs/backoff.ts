// Retry delays: exponential from `baseMs` (attempt 1 waits baseMs, attempt 2 twice that…), capped
// at `maxMs`, with ±20% jitter so jobs that failed together do not all return together.
import { randomInt } from 'node:crypto';

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 5 * 60_000 };

/** Delay before the next try after `attempt` (1-based) failed; `jitter` in [-1, 1] (tests pass 0). */
export function retryDelayMs(attempt: number, b: Backoff = DEFAULT_BACKOFF, jitter = randomInt(-1000, 1001) / 1000): number {
  const exp = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 40)));
  return Math.max(0, Math.round(Math.min(b.maxMs, exp * (1 + 0.2 * jitter))));
}
