// subgraphs/platform/operations/operation-manifest.rules.ts: both manifest formats read, and each
// bad entry refused with the entry named.
import { DomainError } from '../../lib/errors.js';
import { readManifest } from '../../subgraphs/platform/operations/operation-manifest.rules.js';

const Q = 'query CurrentApp { currentApp { id } }';
const M = 'mutation Rename($n: String!) { renameThing(name: $n) { id } } fragment F on Thing { id }';

function parameterOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e.opts.parameter;
    throw e;
  }
  return undefined;
}

test("Apollo Client's persisted-query manifest", () => {
  const ops = readManifest({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'a'.repeat(64), name: 'CurrentApp', type: 'query', body: Q }] });
  expect(ops).toEqual([{ id: 'a'.repeat(64), name: 'CurrentApp', type: 'query', body: Q }]);
});

test("GraphQL Codegen's persisted documents: name and type read from the document", () => {
  const ops = readManifest({ ['b'.repeat(40)]: Q, ['c'.repeat(64)]: M });
  expect(ops.map((o) => [o.name, o.type])).toEqual([
    ['CurrentApp', 'query'],
    ['Rename', 'mutation'],
  ]);
});

test('bad entries are refused, naming them', () => {
  expect(() => readManifest([])).toThrow(DomainError);
  expect(() => readManifest({})).toThrow(/no operation/);
  expect(() => readManifest({ format: 'other', version: 1, operations: [] })).toThrow(/format must be/);
  expect(() => readManifest({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'short', body: Q }] })).toThrow(/hash/);
  expect(() => readManifest({ ['d'.repeat(64)]: 'query {' })).toThrow(/not a GraphQL document/);
  expect(() => readManifest({ ['d'.repeat(64)]: `${Q} query Two { a }` })).toThrow(/exactly one operation/);
  expect(() => readManifest({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'e'.repeat(64), type: 'mutation', body: Q }] })).toThrow(/type says mutation/);
  expect(parameterOf(() => readManifest({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'e'.repeat(64), body: Q }, { id: 'x', body: Q }] }))).toBe('manifest.operations[1].id');
});
