// lib/errors.ts: the code → status table (the kernel's codes, and each service's from the
// generated contract, schema/contract.json), DomainError, and its GraphQL form.
import { GraphQLError } from 'graphql';
import { DomainError, errorDef, isErrorCode, registeredErrors, useErrorCodes, statusOf, toGraphQLError } from '../../lib/errors.js';
import { PLATFORM_ERRORS } from '../../subgraphs/platform/error-codes.js';
import { CATALOG_ERRORS } from '../../subgraphs/catalog/error-codes.js';
import { SEARCH_ERRORS } from '../../subgraphs/search/error-codes.js';
import { AI_ERRORS } from '../../subgraphs/ai/error-codes.js';

const entries = [...registeredErrors().entries()];
const ERROR_TABLE = Object.fromEntries(entries) as Record<string, { status: number; title: string }>;

describe('the registered codes', () => {
  test('has entries', () => {
    expect(entries.length).toBeGreaterThan(30);
  });

  test.each(entries)('%s has an error status and a title', (_code, entry) => {
    expect(Number.isInteger(entry.status)).toBe(true);
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThanOrEqual(599);
    expect(typeof entry.title).toBe('string');
    expect(entry.title.trim().length).toBeGreaterThan(0);
  });

  test('statuses of the cross-cutting codes', () => {
    expect(ERROR_TABLE.UNAUTHENTICATED.status).toBe(401);
    expect(ERROR_TABLE.KEY_NOT_FOUND.status).toBe(401);
    expect(ERROR_TABLE.IP_NOT_ALLOWED.status).toBe(403);
    expect(ERROR_TABLE.INSUFFICIENT_SCOPE.status).toBe(403);
    expect(ERROR_TABLE.RATE_LIMITED.status).toBe(429);
    expect(ERROR_TABLE.VALIDATION_FAILED.status).toBe(422);
    expect(ERROR_TABLE.INTERNAL.status).toBe(500);
    expect(ERROR_TABLE.SERVICE_UNAVAILABLE.status).toBe(503);
  });
});

describe('ownership', () => {
  test("each service's codes are registered under its name; the cross-cutting ones under the kernel", () => {
    for (const [owner, codes] of [['platform', PLATFORM_ERRORS], ['catalog', CATALOG_ERRORS], ['search', SEARCH_ERRORS], ['ai', AI_ERRORS]] as const) {
      for (const code of Object.keys(codes)) expect([code, errorDef(code)?.owner]).toEqual([code, owner]);
    }
    expect(errorDef('UNAUTHENTICATED')?.owner).toBe('kernel');
    expect(errorDef('PRODUCT_NOT_FOUND')?.owner).toBe('catalog');
  });

  test('a code belongs to one owner: giving it from another, or with another status, throws', () => {
    useErrorCodes('catalog', CATALOG_ERRORS); // as startSubgraph does
    expect(() => useErrorCodes('search', { PRODUCT_NOT_FOUND: { status: 404, title: 'x' } })).toThrow(/PRODUCT_NOT_FOUND is registered by catalog/);
    expect(() => useErrorCodes('catalog', { PRODUCT_NOT_FOUND: { status: 410, title: 'x' } })).toThrow(/status 404/);
    expect(statusOf('PRODUCT_NOT_FOUND')).toBe(404);
  });
});

describe('isErrorCode / statusOf', () => {
  test('known codes, spelled as the spec spells them', () => {
    expect(isErrorCode('PRODUCT_NOT_FOUND')).toBe(true);
    expect(isErrorCode('index_not_found')).toBe(true);
    expect(isErrorCode('usr-not-registered')).toBe(true);
  });

  test('unknown codes, wrong case and inherited properties are not codes', () => {
    expect(isErrorCode('NOPE')).toBe(false);
    expect(isErrorCode('product_not_found')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('__proto__')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });

  test('statusOf maps known codes and falls back to 500', () => {
    expect(statusOf('index_already_exists')).toBe(409);
    expect(statusOf('usr-not-registered')).toBe(404);
    expect(statusOf('NOPE')).toBe(500);
    expect(statusOf('constructor')).toBe(500);
  });
});

describe('DomainError', () => {
  test('carries code, status, message and parameter', () => {
    const e = new DomainError('VALIDATION_FAILED', 'price must be positive', { parameter: 'unit_price' });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('DomainError');
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.status).toBe(422);
    expect(e.message).toBe('price must be positive');
    expect(e.opts.parameter).toBe('unit_price');
  });

  test('defaults its message to the table title', () => {
    const e = new DomainError('PRODUCT_NOT_FOUND');
    expect(e.message).toBe('Product not found');
    expect(e.status).toBe(404);
    expect(e.opts).toEqual({});
  });
});

describe('toGraphQLError', () => {
  test('puts code, status and parameter in extensions', () => {
    const g = toGraphQLError(new DomainError('SKU_ALREADY_EXISTS', 'SKU "A-1" is taken', { parameter: 'sku' }));
    expect(g).toBeInstanceOf(GraphQLError);
    expect(g.message).toBe('SKU "A-1" is taken');
    expect(g.extensions).toEqual({ code: 'SKU_ALREADY_EXISTS', status: 409, parameter: 'sku', http: { status: 409 } });
  });

  test('omits parameter when there is none and carries meta', () => {
    const g = toGraphQLError(new DomainError('RATE_LIMITED', undefined, { meta: { retryAfter: 12 } }));
    expect(g.message).toBe('Too many requests');
    expect(g.extensions).toEqual({ code: 'RATE_LIMITED', status: 429, meta: { retryAfter: 12 }, http: { status: 429 } });
    expect('parameter' in g.extensions).toBe(false);
  });
});

describe('each subgraph throws only its own codes and the kernel', () => {
  // A code belongs to the service that throws it: the contract lists it under that service, and a
  // subgraph started before `npm run compose` knows only its own. Scans `new DomainError('<code>'`.
  test.each([
    ['platform', PLATFORM_ERRORS],
    ['catalog', CATALOG_ERRORS],
    ['search', SEARCH_ERRORS],
    ['ai', AI_ERRORS],
  ] as const)('%s', async (name, own) => {
    const { readdir, readFile } = await import('node:fs/promises');
    const root = new URL(`../../subgraphs/${name}/`, import.meta.url);
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const foreign: string[] = [];
    for (const f of files) {
      const text = await readFile(new URL(f, root), 'utf8');
      for (const m of text.matchAll(/new DomainError\(\s*'([^']+)'/g)) {
        if (!(m[1] in own) && errorDef(m[1])?.owner !== 'kernel') foreign.push(`${f}: ${m[1]}`);
      }
    }
    expect(foreign).toEqual([]);
  });
});
