import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random base62 string from node:crypto (rejection sampling keeps it unbiased). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed resource id, e.g. prod_3kTMd92jXq8bPz1vYw0R (~119 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${base62(20)}`;
}
