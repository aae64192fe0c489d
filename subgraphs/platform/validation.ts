// Input checks shared by the platform services. Every failure is a 422 VALIDATION_FAILED naming the
// parameter as a REST client writes it (snake_case), so the REST bridge can render it unchanged.
import { isIP } from 'node:net';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '../../lib/errors.js';
import { base62 } from '../../lib/ids.js';

export function fail(parameter: string, message: string): never {
  throw new DomainError('VALIDATION_FAILED', message, { parameter });
}

/** A required, trimmed, bounded string. */
export function requiredText(value: string | undefined | null, parameter: string, max = 200): string {
  const v = value?.trim();
  if (!v) fail(parameter, `${parameter} must not be empty`);
  if (v.length > max) fail(parameter, `${parameter} is longer than ${max} characters`);
  return v;
}

/** An optional trimmed string; empty becomes undefined. */
export function optionalText(value: string | undefined | null, parameter: string, max = 2000): string | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (!v) return undefined;
  if (v.length > max) fail(parameter, `${parameter} is longer than ${max} characters`);
  return v;
}

export function oneOf<T extends string>(value: string | undefined | null, allowed: readonly T[], parameter: string, fallback: T): T {
  if (value == null) return fallback;
  if (!(allowed as readonly string[]).includes(value)) fail(parameter, `${parameter} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function intInRange(value: number | undefined | null, parameter: string, min: number, max: number): number | undefined {
  if (value == null) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) fail(parameter, `${parameter} must be an integer from ${min} to ${max}`);
  return value;
}

/** URL-safe identifier: lower-case letters, digits and dashes, 1..64 characters. */
export const URL_ID_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
}

export function checkUrlId(value: string, parameter = 'urlId'): string {
  if (!URL_ID_RE.test(value)) fail(parameter, `${parameter} must be 1-64 lower-case letters, digits or dashes, not starting or ending with a dash`);
  return value;
}

export function optionalEmail(value: string | undefined | null, parameter = 'email'): string | undefined {
  const v = optionalText(value, parameter, 320);
  if (v !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) fail(parameter, `${parameter} is not an e-mail address`);
  return v;
}

/** An absolute http(s) URL. */
export function optionalHttpUrl(value: string | undefined | null, parameter: string): string | undefined {
  const v = optionalText(value, parameter, 2048);
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    fail(parameter, `${parameter} is not a valid URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(parameter, `${parameter} must be an http or https URL`);
  return v;
}

const HOSTNAME_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function optionalDomain(value: string | undefined | null, parameter = 'preferredDomain'): string | undefined {
  const v = optionalText(value, parameter, 253)?.toLowerCase();
  if (v !== undefined && !HOSTNAME_RE.test(v)) fail(parameter, `${parameter} must be a domain name such as app.example.com`);
  return v;
}

/** CORS origins: `*`, or scheme://host[:port] with no path (what browsers send in Origin). */
export function originList(values: string[] | undefined | null, parameter = 'allowedOrigins'): string[] {
  const out = new Set<string>();
  for (const raw of values ?? []) {
    const v = raw?.trim();
    if (!v) fail(parameter, `${parameter} must not contain empty entries`);
    if (v === '*') {
      out.add(v);
      continue;
    }
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      fail(parameter, `${parameter}: "${v}" is not an origin such as https://app.example.com`);
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== v.replace(/\/$/, '')) {
      fail(parameter, `${parameter}: "${v}" is not an origin such as https://app.example.com`);
    }
    out.add(u.origin);
  }
  if (out.size > 100) fail(parameter, `${parameter} holds at most 100 entries`);
  return [...out];
}

/** IP addresses or CIDR blocks (v4 or v6), e.g. 203.0.113.7 or 10.0.0.0/8. */
export function ipList(values: string[] | undefined | null, parameter = 'allowedIps'): string[] {
  const out = new Set<string>();
  for (const raw of values ?? []) {
    const v = raw?.trim() ?? '';
    const [addr, bits, extra] = v.split('/');
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (!family || !okBits || extra !== undefined) fail(parameter, `${parameter}: "${v}" is not an IP address or CIDR block`);
    out.add(v);
  }
  if (out.size > 100) fail(parameter, `${parameter} holds at most 100 entries`);
  return [...out];
}

/** Name of the unique constraint a failed insert hit, or undefined for any other error. */
export function uniqueConstraintOf(e: unknown): string | undefined {
  if (e instanceof UniqueConstraintViolationException) return String((e as { constraint?: string }).constraint ?? '');
  return undefined;
}

/** A url_id made unique by a random suffix: `<base>-<6 characters>` (at most 64 characters). */
export function suffixedUrlId(base: string): string {
  return `${base.slice(0, 57)}-${base62(6).toLowerCase()}`;
}

/**
 * Insert with a url_id. A derived url_id (the caller gave none) that a concurrent insert took
 * between the caller's check and `insert` is no conflict of the caller's: the insert is tried again
 * with a suffixed form of `base` (up to 3 times). An explicit url_id, or any other failure, is thrown.
 */
export async function insertWithUrlId<T>(urlId: string, derivedFrom: string | undefined, insert: (urlId: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insert(urlId);
    } catch (e) {
      if (derivedFrom === undefined || attempt >= 3 || !uniqueConstraintOf(e)?.includes('url_id')) throw e;
      urlId = suffixedUrlId(derivedFrom);
    }
  }
}
