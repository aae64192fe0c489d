// Input checks the account services share (on top of ./validation.ts): secrets, JSON objects, names.
import { fail } from './validation.js';

export const MAX_SECRET_CHARS = 16_384;

/** A secret as given (not trimmed: whitespace may be part of it), non-blank and bounded. */
export function secretText(value: string | undefined | null, parameter: string): string {
  if (value == null || value.trim() === '') fail(parameter, `${parameter} must not be empty`);
  if (value.length > MAX_SECRET_CHARS) fail(parameter, `${parameter} is longer than ${MAX_SECRET_CHARS} characters`);
  return value;
}

/** A free-form JSON object, bounded by its serialised size. */
export function jsonObject(value: Record<string, unknown> | undefined | null, parameter: string, maxBytes = 8192): Record<string, unknown> | undefined {
  if (value == null) return undefined;
  if (Buffer.byteLength(JSON.stringify(value)) > maxBytes) fail(parameter, `${parameter} is larger than ${maxBytes} bytes`);
  return value;
}

const PROVIDER_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function providerName(value: string | undefined | null, parameter = 'provider'): string {
  const v = value?.trim().toLowerCase() ?? '';
  if (!PROVIDER_RE.test(v)) fail(parameter, `${parameter} must be 1-64 lower-case letters, digits, ".", "_" or "-" (e.g. stripe, aws)`);
  return v;
}

export function futureDate(value: Date | undefined | null, parameter: string): Date | undefined {
  if (value == null) return undefined;
  if (!(value.getTime() > Date.now())) fail(parameter, `${parameter} must be in the future`);
  return value;
}
