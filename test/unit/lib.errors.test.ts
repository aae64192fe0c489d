// lib/errors.ts: the one code → status table, DomainError, and its GraphQL form.
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_TABLE, isErrorCode, statusOf, toGraphQLError, type ErrorCode } from '../../lib/errors.js';

const entries = Object.entries(ERROR_TABLE) as [ErrorCode, { status: number; title: string }][];

describe('ERROR_TABLE', () => {
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
