import { DomainError } from '../../lib/errors.js';
import { codeFor, coercionError, fromDomainError, fromGraphQLError, overallStatus, renderErrors, withDocumentedCode } from '../../rest-bridge/errors.js';

const gqlErr = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ message, extensions: { code, ...extra } });

describe('rest-bridge error normalisation', () => {
  test('status comes from extensions first, then ERROR_TABLE, then the HTTP status, then 500', () => {
    expect(fromGraphQLError(gqlErr('PRODUCT_NOT_FOUND', 'gone', { status: 410 })).status).toBe(410);
    expect(fromGraphQLError(gqlErr('PRODUCT_NOT_FOUND', 'gone')).status).toBe(404);
    expect(fromGraphQLError(gqlErr('SOMETHING_NEW', 'x'), 418).status).toBe(418);
    expect(fromGraphQLError(gqlErr('SOMETHING_NEW', 'x'))).toMatchObject({ status: 500, code: 'INTERNAL', message: 'Internal server error' });
    expect(fromGraphQLError({ message: 'no extensions' })).toMatchObject({ status: 500, code: 'INTERNAL' });
  });

  test('keeps the parameter and message of domain errors', () => {
    expect(fromGraphQLError(gqlErr('VALIDATION_FAILED', 'sku must not be empty', { status: 422, parameter: 'sku' }))).toEqual({
      code: 'VALIDATION_FAILED',
      status: 422,
      message: 'sku must not be empty',
      parameter: 'sku',
    });
    expect(fromDomainError(new DomainError('BAD_REQUEST', 'bad', { parameter: 'page[size]' }))).toEqual({ code: 'BAD_REQUEST', status: 400, message: 'bad', parameter: 'page[size]' });
  });

  test("the bridge's own GraphQL faults become 500, not a client error", () => {
    for (const code of ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'QUERY_TOO_DEEP']) {
      expect(fromGraphQLError(gqlErr(code, 'Cannot query field "x" on type "Y".', { status: 400 }), 400)).toMatchObject({ status: 500, code: 'INTERNAL' });
    }
  });

  test('gateway auth refusals (HTTP 4xx bodies) keep their code and status', () => {
    expect(fromGraphQLError(gqlErr('KEY_EXPIRED', 'API key expired', { status: 401 }), 401)).toMatchObject({ code: 'KEY_EXPIRED', status: 401 });
    expect(fromGraphQLError(gqlErr('RATE_LIMITED', 'slow down', { status: 429 }), 429)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });

  test('variable coercion errors become 422 naming the REST attribute', () => {
    const missing = 'Variable "$input" got invalid value { price: { amount: 1 } } at "input.price"; Field "currency" of required type "String!" was not provided.';
    expect(fromGraphQLError(gqlErr('BAD_USER_INPUT', missing, { status: 400 }), 400)).toEqual({
      code: 'VALIDATION_FAILED',
      status: 422,
      message: 'price.currency is required',
      parameter: 'price.currency',
      reason: 'missing',
    });
    expect(coercionError('Variable "$input" got invalid value { sku: "x" }; Field "name" of required type "String!" was not provided.')).toMatchObject({
      parameter: 'name',
      message: 'name is required',
    });
    expect(coercionError('Variable "$input" got invalid value "abc" at "input.price.compareAt"; Int cannot represent non-integer value: "abc"')).toMatchObject({
      parameter: 'price.compare_at',
      message: 'price.compare_at: Int cannot represent non-integer value: "abc"',
    });
    expect(coercionError('Variable "$input" got invalid value 5 at "input.allowedIps[0]"; String cannot represent a non string value: 5')).toMatchObject({
      parameter: 'allowed_ips[0]',
    });
    expect(coercionError('Variable "$input" got invalid value { saleAmount: 1 } at "input.price"; Field "saleAmount" is not defined by type "MoneyInput".')).toMatchObject({
      parameter: 'price.sale_amount',
      message: 'price.sale_amount is not a known attribute',
    });
    // arguments-style bodies: the variable is the attribute
    expect(coercionError('Variable "$gracePeriodSeconds" of required type "Int!" was not provided.')).toEqual({
      code: 'VALIDATION_FAILED',
      status: 422,
      message: 'grace_period_seconds is required',
      parameter: 'grace_period_seconds',
      reason: 'missing',
    });
    expect(coercionError('Variable "$tiers" got invalid value 9.5 at "tiers[0].price.amount"; Int cannot represent non-integer value: 9.5')).toMatchObject({ parameter: 'tiers[0].price.amount' });
    expect(coercionError('Variable "$productIds" got invalid value 5; String cannot represent a non string value: 5')).toMatchObject({ parameter: 'product_ids' });
  });

  test('a refusal the service\'s error table names a code for takes that code (INVALID_PRICE for any malformed money value)', () => {
    const v = (parameter: string) => ({ code: 'VALIDATION_FAILED', status: 422, message: 'x', parameter });
    for (const p of ['price', 'price.amount', 'price.compare_at', 'cost.currency', 'tiers[0].price.amount', 'prices[1].amount', 'prices[0].price.currency', 'price_modifier.amount', 'compare_at.amount']) {
      expect(withDocumentedCode('products', v(p))).toMatchObject({ code: 'INVALID_PRICE', status: 422, parameter: p });
    }
    for (const p of ['prices[0].customer_id', 'tiers[0].min_quantity', 'name', 'price_modifier.type']) expect(withDocumentedCode('products', v(p)).code).toBe('VALIDATION_FAILED');
    expect(withDocumentedCode('ai', v('unique_id'))).toMatchObject({ code: 'invalid-uuid-format', status: 400 });
    expect(withDocumentedCode('search', v('filter'))).toMatchObject({ code: 'invalid_filter_syntax', status: 400 });
    expect(withDocumentedCode('platform', v('price.amount')).code).toBe('VALIDATION_FAILED');
    expect(withDocumentedCode('products', { ...v('price'), code: 'BAD_REQUEST' }).code).toBe('BAD_REQUEST');
    // a missing value is no malformed one, nor an unknown name: told by the typed reason, not the text
    expect(withDocumentedCode('search', { ...v('filter'), reason: 'missing' }).code).toBe('VALIDATION_FAILED');
    expect(withDocumentedCode('products', { ...v('price.currency'), reason: 'missing' }).code).toBe('VALIDATION_FAILED');
    expect(withDocumentedCode('search', { ...v('filter'), reason: 'unknown' }).code).toBe('VALIDATION_FAILED');
    // whatever the message says
    expect(withDocumentedCode('products', { ...v('price.amount'), message: 'price.amount is required to be an integer' }).code).toBe('INVALID_PRICE');
    expect(coercionError('Variable "$input" got invalid value {} at "input.price"; Field "currency" of required type "String!" was not provided.').reason).toBe('missing');
    expect(coercionError('Variable "$input" got invalid value { saleAmount: 1 } at "input.price"; Field "saleAmount" is not defined by type "MoneyInput".').reason).toBe('unknown');
    expect(coercionError('Variable "$input" got invalid value "abc" at "input.price.compareAt"; Int cannot represent non-integer value: "abc"').reason).toBeUndefined();
  });

  test('overall status: agreeing statuses, mixed 4xx → 400, any 5xx → 500', () => {
    const e = (status: number) => ({ code: 'X', status, message: 'x' });
    expect(overallStatus([e(404), e(404)])).toBe(404);
    expect(overallStatus([e(404), e(422)])).toBe(400);
    expect(overallStatus([e(404), e(503)])).toBe(500);
  });
});

describe('rest-bridge error shapes', () => {
  const notFound = { code: 'ACCOUNT_NOT_FOUND', status: 404, message: 'Account acme not found', parameter: 'url_id' };

  test('platform: { error, message, status, parameter } with lower_snake codes', () => {
    expect(renderErrors('platform', [notFound])).toEqual({
      status: 404,
      body: { error: 'account_not_found', message: 'Account acme not found', status: 404, parameter: 'url_id' },
    });
    expect(renderErrors('platform', [{ code: 'VALIDATION_FAILED', status: 422, message: 'bad' }]).body).toEqual({ error: 'validation_failed', message: 'bad', status: 422 });
  });

  test('products: JSON:API errors with the UPPER_SNAKE codes of the spec', () => {
    expect(renderErrors('products', [{ code: 'PRODUCT_NOT_FOUND', status: 404, message: 'Product p1 not found', parameter: 'id' }])).toEqual({
      status: 404,
      body: { errors: [{ status: '404', code: 'PRODUCT_NOT_FOUND', title: 'Product not found', detail: 'Product p1 not found', source: { parameter: 'id' } }] },
    });
    expect(renderErrors('products', [{ code: 'RATE_LIMITED', status: 429, message: 'slow' }]).body).toMatchObject({ errors: [{ code: 'RATE_LIMITED', status: '429' }] });
  });

  test('search: JSON:API errors with lower_snake codes; RATE_LIMITED → rate_limit_exceeded', () => {
    expect(renderErrors('search', [{ code: 'index_not_found', status: 404, message: 'Index movies not found', parameter: 'index_uid' }])).toEqual({
      status: 404,
      body: { errors: [{ status: '404', code: 'index_not_found', title: 'Index not found', detail: 'Index movies not found', source: { parameter: 'index_uid' } }] },
    });
    expect(renderErrors('search', [{ code: 'RATE_LIMITED', status: 429, message: 'slow' }]).body).toMatchObject({ errors: [{ code: 'rate_limit_exceeded', status: '429' }] });
    expect(renderErrors('search', [{ code: 'UNAUTHENTICATED', status: 401, message: 'no key' }]).body).toMatchObject({ errors: [{ code: 'unauthenticated' }] });
  });

  test('ai: shape A for everything but usr-not-registered, which is shape B', () => {
    expect(renderErrors('ai', [{ code: 'usr-not-registered', status: 404, message: 'User u1 is not registered' }])).toEqual({
      status: 404,
      body: { error: { code: 'usr-not-registered', message: 'User u1 is not registered', status: 404 } },
    });
    expect(renderErrors('ai', [{ code: 'invalid-uuid-format', status: 400, message: 'bad uuid', parameter: 'unique_id' }]).body).toEqual({
      errors: [{ status: '400', code: 'invalid-uuid-format', title: 'unique_id is not a valid UUID', detail: 'bad uuid', source: { parameter: 'unique_id' } }],
    });
    expect(renderErrors('ai', [{ code: 'RATE_LIMITED', status: 429, message: 'slow' }]).body).toMatchObject({ errors: [{ code: 'rate_limit_exceeded' }] });
    expect(renderErrors('ai', [{ code: 'INSUFFICIENT_SCOPE', status: 403, message: 'scope' }]).body).toMatchObject({ errors: [{ code: 'insufficient_scope' }] });
  });

  test('an empty error list still renders a 500 in the shape, never a stack', () => {
    for (const service of ['platform', 'products', 'search', 'ai'] as const) {
      const { status, body } = renderErrors(service, []);
      expect(status).toBe(500);
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  test('codeFor per service', () => {
    expect(codeFor('platform', 'usr-not-registered')).toBe('usr_not_registered');
    expect(codeFor('products', 'SKU_ALREADY_EXISTS')).toBe('SKU_ALREADY_EXISTS');
    expect(codeFor('search', 'SERVICE_UNAVAILABLE')).toBe('service_unavailable');
    expect(codeFor('ai', 'model_unavailable')).toBe('model_unavailable');
  });
});
