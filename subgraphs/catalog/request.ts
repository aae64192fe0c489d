// Request-level checks shared by the catalog's aggregates: page bounds, texts and slugs. The REST
// bridge validates the same page bounds first; these guard the GraphQL callers.
import { DomainError } from '../../lib/errors.js';

export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** page[number] >= 1 and 1 <= page[size] <= 100, or 400 naming the parameter. */
export function checkPage(page: number, pageSize: number): PageRequest {
  if (!Number.isInteger(page) || page < 1) throw new DomainError('BAD_REQUEST', 'page[number] must be an integer >= 1', { parameter: 'page[number]' });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new DomainError('BAD_REQUEST', `page[size] must be an integer from 1 to ${MAX_PAGE_SIZE}`, { parameter: 'page[size]' });
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
