// lib/input-policy.ts and gateway/request-policy.ts: the edges' input policy, and the bounded work
// of the gateway's checks (fragment memoisation, capped variable errors).
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { DomainError } from '../../lib/errors.js';
import { checkJsonDepth, checkJsonValue, checkPathParams, checkQueryString, MAX_JSON_DEPTH, MAX_OBJECT_KEYS, parseCheckedJson } from '../../lib/input-policy.js';
import { measureOperation, limitError, DEFAULT_MAX_ALIASES } from '../../gateway/limits.js';
import { resolveOperation, variableErrors, MAX_VARIABLE_ERRORS } from '../../gateway/request-policy.js';

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('strings', () => {
  test('NUL and lone surrogates are refused naming the parameter; pairs and ordinary text pass', () => {
    expect(refusal(() => checkPathParams({ id: 'a\u0000b' }))).toMatchObject({ code: 'BAD_REQUEST', status: 400, opts: { parameter: 'id' } });
    expect(refusal(() => checkPathParams({ id: 'a\ud800b' })).opts.parameter).toBe('id');
    expect(refusal(() => checkPathParams({ id: 'a\udc00' })).opts.parameter).toBe('id');
    expect(() => checkPathParams({ id: 'emoji 😀 é' })).not.toThrow();
  });

  test('query values are named as the client wrote them', () => {
    expect(refusal(() => checkQueryString('?page[size]=1&filter[name]=x%00y')).opts.parameter).toBe('filter[name]');
    expect(() => checkQueryString('filter[name]=ok&q=%F0%9F%98%80')).not.toThrow();
    expect(refusal(() => checkQueryString('a%00b=1')).message).toMatch(/NUL/);
  });

  test('JSON strings and keys at any depth, with the path in the parameter', () => {
    const rename = (p: string) => p.replace(/^data\.attributes\./, '');
    expect(refusal(() => parseCheckedJson('{"data":{"attributes":{"meta":{"list":["ok","\\u0000"]}}}}', rename)).opts.parameter).toBe('meta.list[1]');
    expect(refusal(() => parseCheckedJson('{"data":{"attributes":{"name":"a\\ud800"}}}', rename)).opts.parameter).toBe('name');
    expect(refusal(() => checkJsonValue({ m: { 'k\u0000': 1 } })).opts.parameter).toBe('m');
  });
});

describe('JSON shape', () => {
  test('nesting deeper than the limit is refused before parsing, brackets in strings ignored', () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => checkJsonDepth(ok)).not.toThrow();
    expect(refusal(() => checkJsonDepth('[' + ok + ']')).message).toMatch(/deeper than 32/);
    expect(() => checkJsonDepth(JSON.stringify({ s: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[[' }))).not.toThrow();
    const huge = '['.repeat(500_000) + ']'.repeat(500_000);
    const t = performance.now();
    expect(refusal(() => parseCheckedJson(huge)).code).toBe('BAD_REQUEST');
    expect(performance.now() - t).toBeLessThan(100);
  });

  test('prototype-polluting keys are refused at any depth', () => {
    for (const k of ['__proto__', 'constructor', 'prototype']) {
      const e = refusal(() => parseCheckedJson(`{"a":{"b":[{"${k}":{"x":1}}]}}`));
      expect(e.opts.parameter).toBe(`a.b[0].${k}`);
    }
  });

  test('an object with more keys than the limit is refused', () => {
    const o = Object.fromEntries(Array.from({ length: MAX_OBJECT_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expect(refusal(() => checkJsonValue({ attrs: o })).opts.parameter).toBe('attrs');
    delete o.k0;
    expect(() => checkJsonValue({ attrs: o })).not.toThrow();
  });

  test('malformed JSON is INVALID_JSON', () => {
    expect(refusal(() => parseCheckedJson('{"a":')).code).toBe('INVALID_JSON');
  });
});

const schema = buildSchema(/* GraphQL */ `
  input PriceInput { amount: Int!, currency: String! }
  input CreateInput { name: String!, price: PriceInput, tags: [String!] }
  type Thing { id: ID!, name: String }
  type Query { thing(id: ID!): Thing, things(first: Int): [Thing!]! }
  type Mutation { create(input: CreateInput!): Thing }
`);

describe('gateway request policy', () => {
  const op = (q: string, name?: string) => resolveOperation(parse(q), name);

  test('an operationName that names no operation, or a missing one among several, is a 400', () => {
    expect(() => op('query A { thing(id: "1") { id } }', 'B')).toThrow(/Unknown operation named "B"/);
    expect(() => op('query A { __typename } query B { __typename }')).toThrow(/operationName must name one/);
    expect(op('query A { __typename } query B { __typename }', 'B').name?.value).toBe('B');
  });

  test('variable errors are capped in number and never echo the whole value', () => {
    const o: OperationDefinitionNode = op('mutation($input: CreateInput!) { create(input: $input) { id } }');
    const input: Record<string, unknown> = { name: 'x' };
    for (let i = 0; i < 20_000; i++) input[`unknown${i}`] = 'v'.repeat(50);
    const t = performance.now();
    const errors = variableErrors(schema, o, { input });
    expect(performance.now() - t).toBeLessThan(200);
    expect(errors).toHaveLength(MAX_VARIABLE_ERRORS + 1);
    expect(errors[0].message).toBe('Variable "$input" got invalid value {…}; Field "unknown0" is not defined by type "CreateInput".');
    expect(errors.every((e) => e.message.length < 500)).toBe(true);
    expect(errors[MAX_VARIABLE_ERRORS].message).toMatch(/More than 10 invalid variable values/);
  });

  test('the wording the REST bridge reads: at "input.price"; Field … of required type', () => {
    const o = op('mutation($input: CreateInput!) { create(input: $input) { id } }');
    const [e] = variableErrors(schema, o, { input: { name: 'x', price: { amount: 1 } } });
    expect(e.message).toBe('Variable "$input" got invalid value {…} at "input.price"; Field "currency" of required type "String!" was not provided.');
    expect(variableErrors(schema, o, {})[0].message).toBe('Variable "$input" of required type "CreateInput!" was not provided.');
    expect(variableErrors(schema, o, { input: { name: 'x', tags: ['a', 'b'] } })).toEqual([]);
  });
});

describe('bounded measuring', () => {
  test('fragments are measured once: 2^40 expansions take no time', () => {
    let doc = 'query { ...F40 }\nfragment F0 on Query { things { id } }\n';
    for (let i = 1; i <= 40; i++) doc += `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }\n`;
    const t = performance.now();
    const m = measureOperation(schema, parse(doc), undefined);
    expect(performance.now() - t).toBeLessThan(50);
    expect(m.depth).toBe(2);
    // each expansion: things, a list of objects without @listSize: 20 × 1 (id is a scalar: 0)
    expect(m.cost).toBe(2 ** 40 * 20);
    expect(limitError(m, 12, 5000)?.extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  test('aliases are counted through fragments and capped', () => {
    const aliased = Array.from({ length: 60 }, (_, i) => `a${i}: thing(id: "1") { id }`).join(' ');
    const m = measureOperation(schema, parse(`query { ...A ...A2 } fragment A on Query { ${aliased} } fragment A2 on Query { ...A }`), undefined);
    expect(m.aliases).toBe(120);
    expect(limitError(m, 12, 50_000, DEFAULT_MAX_ALIASES)?.message).toMatch(/120 aliased fields; at most 100/);
    expect(limitError({ ...m, aliases: 100 }, 12, 50_000)).toBeUndefined();
  });
});
