// Request-level checks shared by the catalog's aggregates: page bounds, texts and slugs. The REST
// bridge validates the same page bounds first; these guard the GraphQL callers.
import { DomainError } from '../../lib/errors.js';

/** The catalog's list pages (products, categories, collections): written here once, carried to the REST bridge by the contract (limits.ts). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** page >= 1 and 1 <= pageSize <= MAX_PAGE_SIZE, or 400 naming the argument. */
export function checkPage(page: number, pageSize: number): PageRequest {
  if (!Number.isInteger(page) || page < 1) throw new DomainError('BAD_REQUEST', 'page must be an integer >= 1', { parameter: 'page' });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new DomainError('BAD_REQUEST', `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`, { parameter: 'pageSize' });
  }
  return { page, pageSize };
}

/** Trimmed non-empty text of at most `max` characters, or 422 naming the parameter. */
export function requiredText(value: string | undefined | null, parameter: string, max: number): string {
  const v = value?.trim();
  if (!v) throw new DomainError('VALIDATION_FAILED', `${parameter} must not be empty`, { parameter });
  if (v.length > max) throw new DomainError('VALIDATION_FAILED', `${parameter} is longer than ${max} characters`, { parameter });
  return v;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A URL slug: lower-case letters, digits and single hyphens (Shopify's handle rule). */
export function checkSlug(slug: string, parameter = 'slug'): string {
  if (slug.length > 200 || !SLUG.test(slug)) {
    throw new DomainError('VALIDATION_FAILED', `${parameter} must be lower-case letters, digits and single hyphens (e.g. "summer-sale"), at most 200 characters`, { parameter });
  }
  return slug;
}

/** The slug derived from a name, as Shopify derives a handle from a title ("Café Tables!" → "cafe-tables"). */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
  return s || 'item';
}

export interface Seo {
  title?: string;
  description?: string;
}

/** SEO fields: title at most 200, description at most 1000 characters; null clears, undefined keeps. */
export function checkSeo(seo: { title?: string | null; description?: string | null } | null | undefined): Seo | null | undefined {
  if (seo === undefined || seo === null) return seo;
  if (seo.title != null && seo.title.length > 200) throw new DomainError('VALIDATION_FAILED', 'seo.title is longer than 200 characters', { parameter: 'seo.title' });
  if (seo.description != null && seo.description.length > 1000) {
    throw new DomainError('VALIDATION_FAILED', 'seo.description is longer than 1000 characters', { parameter: 'seo.description' });
  }
  return { ...(seo.title != null ? { title: seo.title } : {}), ...(seo.description != null ? { description: seo.description } : {}) };
}

/** A description of at most 10,000 characters. */
export function checkDescription(d: string | null | undefined): string | null | undefined {
  if (typeof d === 'string' && d.length > 10_000) throw new DomainError('VALIDATION_FAILED', 'description is longer than 10000 characters', { parameter: 'description' });
  return d;
}

/** A value that must be one of `allowed`, or 422 naming the parameter. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], parameter: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new DomainError('VALIDATION_FAILED', `${parameter} must be one of ${allowed.join(', ')}`, { parameter });
  return value as T;
}
