import { createHash } from 'node:crypto';

/**
 * What the platform stores and the gateway looks up: SHA-256 (hex) of the whole UTF-8 key value.
 * One function for both sides, so they can never disagree. (Keys carry ≥128 random bits: a fast
 * hash is enough, as in Unkey.)
 */
export function hashApiKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
