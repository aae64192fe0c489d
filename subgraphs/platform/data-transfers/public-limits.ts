// Limits of the public data-transfer paths (docs/security.md, "Limits"): anyone may call them, so
// they are limited per client address and per transfer code, and failed guesses (an unknown code,
// a wrong access code) are counted per address: past their limit the address is refused, before
// any lookup, until the window ends, so codes cannot be found by trying. A malformed code costs no
// lookup and is not counted. Counters live in the process's RateLimiter (Redis when REDIS_URL is
// set, so replicas share them).
import { envInt } from '../../../lib/config.js';
import { DomainError } from '../../../lib/errors.js';
import type { RateLimiter, RateLimitResult } from '../../../lib/rate-limit.js';

export interface PublicTransferLimitValues {
  /** public requests per client address per minute */
  perAddress: number;
  /** public requests naming one transfer code per minute, from any address */
  perCode: number;
  /** failed guesses (unknown code, wrong access code) per client address per minute */
  failedGuesses: number;
}

export function publicTransferLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): PublicTransferLimitValues {
  return {
    perAddress: envInt(env, 'DATA_TRANSFER_REQUESTS_PER_MINUTE', 120),
    perCode: envInt(env, 'DATA_TRANSFER_CODE_REQUESTS_PER_MINUTE', 60),
    failedGuesses: envInt(env, 'DATA_TRANSFER_FAILED_GUESSES_PER_MINUTE', 20),
  };
}

export class PublicTransferLimits {
  /** client address → until when it is refused (too many failed guesses) */
  private blockedUntil = new Map<string, number>();

  constructor(
    private limiter: RateLimiter,
    readonly values: PublicTransferLimitValues,
    private now: () => number = Date.now,
  ) {}

  /** Count one public request naming `code` from `address`; RATE_LIMITED (429) past a limit. */
  async admit(address: string | undefined, code: string): Promise<void> {
    const who = address ?? 'unknown';
    const blocked = this.blockedUntil.get(who);
    if (blocked !== undefined && blocked > this.now()) throw limited(`Too many failed data-transfer code guesses from this address (more than ${this.values.failedGuesses} per minute)`, blocked - this.now());
    const byAddress = await this.limiter.hit(`transfer-address:${who}`, this.values.perAddress);
    if (!byAddress.allowed) throw limited(`At most ${this.values.perAddress} data-transfer requests per minute from one address`, byAddress.resetMs);
    const byCode = await this.limiter.hit(`transfer-code:${code}`, this.values.perCode);
    if (!byCode.allowed) throw limited(`At most ${this.values.perCode} requests per minute for one data transfer`, byCode.resetMs);
  }

  /**
   * Count a failed guess. The guess past the limit is answered RATE_LIMITED (429) instead of its own
   * error, and the address is refused for the rest of the window.
   */
  async failedGuess(address: string | undefined): Promise<void> {
    const who = address ?? 'unknown';
    const r: RateLimitResult = await this.limiter.hit(`transfer-miss:${who}`, this.values.failedGuesses);
    if (r.allowed) return;
    const now = this.now();
    this.blockedUntil.set(who, now + r.resetMs);
    if (this.blockedUntil.size > 10_000) for (const [ip, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(ip);
    throw limited(`Too many failed data-transfer code guesses from this address (more than ${this.values.failedGuesses} per minute)`, r.resetMs);
  }
}

function limited(message: string, resetMs: number): DomainError {
  return new DomainError('RATE_LIMITED', message, { meta: { retryAfterMs: Math.max(0, resetMs) } });
}
