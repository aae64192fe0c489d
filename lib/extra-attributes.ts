// Attributes kept as given: the resources whose API document says they have fields it does not
// show (docs/contract-suite.md, "Resources with fields not shown") keep an attribute the API does
// not list instead of refusing it. Each such entity stores them in one jsonb column
// (`extra_attributes`) and answers them as the `extraAttributes` JSON field; the REST bridge takes
// them from, and answers them merged into, the resource's `attributes`.
//
// Rules, the same on every such resource and on both edges:
//  - a write merges key by key into what is stored; a key set to null removes it (on a create, a
//    null key is simply not stored);
//  - keys match KEY_PATTERN; at most MAX_KEYS keys and MAX_BYTES of JSON are stored per record;
//  - values are kept exactly as given (any JSON: strings, numbers, objects, arrays).
// A refusal is 422 VALIDATION_FAILED naming `extraAttributes.<key>` (a key) or `extraAttributes`
// (the whole set); the REST bridge names them `<key>` and `data.attributes`.
import { DomainError } from './errors.js';

/** The GraphQL field (object and input types alike) that carries them. */
export const EXTRA_ATTRIBUTES_FIELD = 'extraAttributes';
export const EXTRA_ATTRIBUTES_LIMITS = { maxKeys: 64, maxBytes: 16 * 1024 } as const;
/** a letter, then letters, digits, `_` or `-`; 64 characters at most */
export const EXTRA_ATTRIBUTE_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export type ExtraAttributes = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const EXTRA_ATTRIBUTES_DESCRIPTION =
  `Attributes the API documents do not list, kept as given (keys ${EXTRA_ATTRIBUTE_KEY.source}, at most ` +
  `${EXTRA_ATTRIBUTES_LIMITS.maxKeys} keys and ${EXTRA_ATTRIBUTES_LIMITS.maxBytes} bytes of JSON); a write merges key by key, null removes a key`;

function refuse(parameter: string, message: string): never {
  throw new DomainError('VALIDATION_FAILED', message, { parameter });
}

/**
 * `current` with `patch` merged in (null removes a key), checked against the limits. Undefined or
 * null `patch`: `current` unchanged. Returns a new object; `current` is not modified.
 */
export function mergeExtraAttributes(current: ExtraAttributes | null | undefined, patch: unknown): ExtraAttributes {
  const base: ExtraAttributes = { ...(current ?? {}) };
  if (patch === undefined || patch === null) return base;
  if (!isPlainObject(patch)) refuse(EXTRA_ATTRIBUTES_FIELD, `${EXTRA_ATTRIBUTES_FIELD} must be an object`);
  for (const [key, value] of Object.entries(patch)) {
    if (!EXTRA_ATTRIBUTE_KEY.test(key)) refuse(`${EXTRA_ATTRIBUTES_FIELD}.${key}`, `${key} is not a valid attribute name (a letter, then letters, digits, _ or -; 64 characters at most)`);
    if (value === null) delete base[key];
    else base[key] = value;
  }
  const keys = Object.keys(base).length;
  if (keys > EXTRA_ATTRIBUTES_LIMITS.maxKeys) refuse(EXTRA_ATTRIBUTES_FIELD, `at most ${EXTRA_ATTRIBUTES_LIMITS.maxKeys} attributes beyond the documented ones are kept (${keys} given)`);
  const bytes = Buffer.byteLength(JSON.stringify(base));
  if (bytes > EXTRA_ATTRIBUTES_LIMITS.maxBytes) refuse(EXTRA_ATTRIBUTES_FIELD, `the attributes beyond the documented ones take at most ${EXTRA_ATTRIBUTES_LIMITS.maxBytes} bytes of JSON (${bytes} given)`);
  return base;
}
