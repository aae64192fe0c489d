import { createRequire } from 'node:module';
import { buildSchema, execute, parse } from 'graphql';
import { fieldArgsFastPath, NO_ARGUMENTS } from '../../lib/graphql-field-args.js';

const schema = buildSchema(`
  type Item { id: ID! label(upper: Boolean = false): String! tags: [String!]! }
  type Query { items(first: Int!, prefix: String): [Item!]! count: Int! }
`);

const seen: unknown[] = [];
const rootValue = {
  items: (args: { first: number; prefix?: string }) =>
    Array.from({ length: args.first }, (_, i) => ({
      id: `${args.prefix ?? 'i'}${i}`,
      label: (a: { upper: boolean }) => (a.upper ? `ITEM ${i}` : `item ${i}`),
      tags: (a: unknown) => {
        seen.push(a);
        return ['x'];
      },
    })),
  count: () => 3,
};

function run(query: string, variableValues?: Record<string, unknown>) {
  return JSON.parse(JSON.stringify(execute({ schema, document: parse(query), rootValue, variableValues })));
}

describe('graphql field arguments fast path', () => {
  const queries: [string, Record<string, unknown>?][] = [
    ['{ items(first: 2) { id label tags } count }'],
    ['{ items(first: 2, prefix: "p") { id label(upper: true) } }'],
    ['query($n: Int!, $u: Boolean) { items(first: $n) { label(upper: $u) } }', { n: 1, u: true }],
    ['query($n: Int!) { items(first: $n) { label } }', {}],
    ['{ items { id } }'],
    ['{ items(first: "two") { id } }'],
  ];
  const before = queries.map(([q, v]) => run(q, v));

  test('is installed, once', () => {
    expect(fieldArgsFastPath()).toBe(true);
    const values = createRequire(import.meta.url)('graphql/execution/values.js') as { getArgumentValues: unknown };
    const wrapped = values.getArgumentValues;
    expect(fieldArgsFastPath()).toBe(true);
    expect(values.getArgumentValues).toBe(wrapped);
  });

  test('answers, defaults and errors are graphql-js own', () => {
    fieldArgsFastPath();
    expect(queries.map(([q, v]) => run(q, v))).toEqual(before);
    // the error cases really are errors (a missing required argument, a variable not provided, a wrong type)
    expect(before[3].errors?.[0]?.message).toMatch(/Variable "\$n" of required type "Int!" was not provided/);
    expect(before[4].errors?.[0]?.message).toMatch(/Argument "first" of required type "Int!" was not provided/);
  });

  test('a field without arguments gets the shared empty, frozen object', () => {
    fieldArgsFastPath();
    seen.length = 0;
    run('{ items(first: 2) { tags } }');
    expect(seen).toHaveLength(2);
    for (const a of seen) expect(a).toBe(NO_ARGUMENTS);
    expect(Object.keys(NO_ARGUMENTS)).toEqual([]);
    expect(Object.isFrozen(NO_ARGUMENTS)).toBe(true);
  });
});
