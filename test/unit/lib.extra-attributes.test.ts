// Attributes kept as given (lib/extra-attributes.ts) and how the REST bridge carries them
// (jsonapi.toGraphQLInput's `extra`, jsonapi.resource's merge): pure logic.
import { DomainError } from '../../lib/errors.js';
import { mergeExtraAttributes } from '../../lib/extra-attributes.js';
import { resource, toGraphQLInput } from '../../rest-bridge/jsonapi.js';
import type { AttrFields } from '../../rest-bridge/types.js';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? { code: e.code, parameter: e.opts.parameter } : e;
  }
  return undefined;
};

describe('mergeExtraAttributes', () => {
  test('merges key by key; null removes a key; values kept exactly; the stored object is not modified', () => {
    const stored = { a: 1, b: { deep: [1, null] } };
    expect(mergeExtraAttributes(stored, { c: 'x', a: null, camelCase: true })).toEqual({ b: { deep: [1, null] }, c: 'x', camelCase: true });
    expect(stored).toEqual({ a: 1, b: { deep: [1, null] } });
    expect(mergeExtraAttributes(undefined, { gone: null })).toEqual({});
    expect(mergeExtraAttributes({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  test('bounds: key pattern, 64 keys, 16 KiB (after the merge), naming extraAttributes or the key', () => {
    expect(refusal(() => mergeExtraAttributes({}, { 'a b': 1 }))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'extraAttributes.a b' });
    expect(refusal(() => mergeExtraAttributes({}, { _x: 1 }))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'extraAttributes._x' });
    expect(refusal(() => mergeExtraAttributes({}, { ['k'.repeat(65)]: 1 }))).toMatchObject({ parameter: `extraAttributes.${'k'.repeat(65)}` });
    expect(mergeExtraAttributes({}, { ['k'.repeat(64)]: 1 })).toHaveProperty('k'.repeat(64));
    const many = (n: number, p: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${p}${i}`, i]));
    expect(Object.keys(mergeExtraAttributes(many(32, 'a'), many(32, 'b')))).toHaveLength(64);
    expect(refusal(() => mergeExtraAttributes(many(32, 'a'), many(33, 'b')))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'extraAttributes' });
    expect(refusal(() => mergeExtraAttributes({}, { x: 'y'.repeat(16 * 1024) }))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'extraAttributes' });
    expect(refusal(() => mergeExtraAttributes({}, ['a']))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'extraAttributes' });
  });
});

describe('the REST bridge carries them', () => {
  const fields: AttrFields = { name: { graphql: 'name', spec: { kind: 'scalar', type: 'string' }, required: true } };

  test('unknown attributes go to the extra field when the body has one, else 422 naming them', () => {
    expect(toGraphQLInput({ name: 'n', colour: 'red', created_at: 'x' }, fields, { readOnly: new Set(['created_at']), extra: 'extraAttributes' })).toEqual({ name: 'n', extraAttributes: { colour: 'red' } });
    expect(toGraphQLInput({ name: 'n' }, fields, { extra: 'extraAttributes' })).toEqual({ name: 'n' });
    expect(refusal(() => toGraphQLInput({ name: 'n', colour: 'red' }, fields))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'colour' });
  });

  test('answered among the attributes, after the documented ones, which always win', () => {
    const r = resource('credentials', { id: 'c1', name: 'Stripe', extraAttributes: { region: 'eu', name: 'shadow', id: 'x' } });
    expect(r).toEqual({ id: 'c1', type: 'credentials', attributes: { name: 'Stripe', region: 'eu' } });
    expect(Object.keys(r.attributes)).toEqual(['name', 'region']);
  });
});
