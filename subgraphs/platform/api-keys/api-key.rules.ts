// Pure rules for API keys: scopes, key value format, hashing, masking. No I/O.
import { hashApiKey } from '../../../lib/api-key-hash.js';
import { base62 } from '../../../lib/ids.js';
import type { Environment } from '../../../lib/tenant.js';
import { fail } from '../validation.js';
import type { KeyType } from './api-key.entity.js';

/** The scopes a key may carry (CONTRACT.md, Authentication). */
export const KEY_SCOPES = ['products:read', 'products:write', 'search:read', 'search:write', 'ai:read', 'ai:write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Random part of a key value: 32 base62 characters ≈ 190 bits from node:crypto. */
const RANDOM_LENGTH = 32;

/**
 * The scopes a new key gets. None given (or an empty list) → every scope its type allows: all for a
 * secret key, the `:read` ones for a publishable key, which can never write. Unknown names → 422.
 */
export function resolveScopes(keyType: KeyType, requested: readonly string[] | null | undefined): KeyScope[] {
  const allowed: readonly KeyScope[] = keyType === 'secret' ? KEY_SCOPES : KEY_SCOPES.filter((s) => s.endsWith(':read'));
  const asked = [...new Set((requested ?? []).map((s) => s.trim()).filter(Boolean))];
  if (asked.length === 0) return [...allowed];
  const unknown = asked.filter((s) => !(KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length) fail('scopes', `unknown scope(s): ${unknown.join(', ')}; allowed: ${KEY_SCOPES.join(', ')}`);
  const refused = asked.filter((s) => !(allowed as readonly string[]).includes(s));
  if (refused.length) fail('scopes', `a publishable key cannot carry write scopes (${refused.join(', ')})`);
  return KEY_SCOPES.filter((s) => asked.includes(s)); // canonical order
}

export interface GeneratedKey {
  /** the full value: returned once, in the create response, never stored */
  value: string;
  prefix: string;
  lastFour: string;
  hash: string;
}

/** `<pk|sk>_<test|live>_<sh|ent|byok>_<random>` */
export function generateKey(keyType: KeyType, environment: Environment, tier: 'sh' | 'ent' | 'byok'): GeneratedKey {
  const prefix = `${keyType === 'secret' ? 'sk' : 'pk'}_${environment}_${tier}_`;
  const value = prefix + base62(RANDOM_LENGTH);
  return { value, prefix, lastFour: value.slice(-4), hash: hashApiKey(value) };
}

export { hashApiKey };

/** Display form of a stored key, e.g. `sk_live_sh_…x9Qz`. */
export function maskKey(prefix: string, lastFour: string): string {
  return `${prefix}…${lastFour}`;
}
