// Pure inventory rules: stock crossings and request checks.
import { DomainError } from '../../../lib/errors.js';
import { availableOf, type ItemState } from './inventory.repository.js';

/**
 * The alerts a change fires: low_stock when available goes from at or above the threshold to below
 * it, out_of_stock when it goes from above 0 to 0. A write that stays below fires nothing, so each
 * crossing fires once; it fires again only after stock rose back over the line. Untracked stock
 * and backorder products never alert.
 */
export function stockCrossings(before: ItemState, after: ItemState): ('inventory.low_stock' | 'inventory.out_of_stock')[] {
  if (!after.trackStock || after.allowBackorder) return [];
  const a = availableOf(before);
  const b = availableOf(after);
  const out: ('inventory.low_stock' | 'inventory.out_of_stock')[] = [];
  if (after.threshold != null && a >= after.threshold && b < after.threshold) out.push('inventory.low_stock');
  if (a > 0 && b <= 0) out.push('inventory.out_of_stock');
  return out;
}

export const MAX_QUANTITY = 1_000_000_000;
/** A reservation lives 15 minutes unless expires_at says otherwise; at most 30 days. */
export const DEFAULT_HOLD_MS = 15 * 60_000;
export const MAX_HOLD_MS = 30 * 24 * 3600_000;

export function checkInt(v: number, parameter: string, min: number, max = MAX_QUANTITY): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new DomainError('VALIDATION_FAILED', `${parameter} must be an integer from ${min} to ${max}`, { parameter });
  return v;
}

/** expires_at: in the future and at most 30 days ahead; absent: 15 minutes from now. */
export function checkExpiry(expiresAt: Date | null | undefined, now = Date.now()): Date {
  if (expiresAt == null) return new Date(now + DEFAULT_HOLD_MS);
  const t = expiresAt.getTime();
  if (Number.isNaN(t) || t <= now) throw new DomainError('VALIDATION_FAILED', 'expires_at must be a future ISO 8601 time', { parameter: 'expiresAt' });
  if (t - now > MAX_HOLD_MS) throw new DomainError('VALIDATION_FAILED', 'expires_at is more than 30 days ahead', { parameter: 'expiresAt' });
  return expiresAt;
}

export function checkText(v: string | null | undefined, parameter: string, max: number, required: boolean): string | null {
  const t = v?.trim();
  if (!t) {
    if (required) throw new DomainError('VALIDATION_FAILED', `${parameter} must not be empty`, { parameter });
    return null;
  }
  if (t.length > max) throw new DomainError('VALIDATION_FAILED', `${parameter} is longer than ${max} characters`, { parameter });
  return t;
}
