// The subgraphs' executor (lib/graphql-executor.ts): answers and error codes as Apollo Server gave them.
import { buildSchema } from 'graphql';
import { createErrorFormatter } from '../../lib/graphql-errors.js';
import { DomainError, toGraphQLError } from '../../lib/errors.js';
import { GraphQLExecutor } from '../../lib/graphql-executor.js';
import { createLogger } from '../../lib/logger.js';

const schema = buildSchema(`
  type Query { hello(name: String!): String, fails: String, broken: String }
  type Mutation { bump: Int }
`);
const root = {
  hello: ({ name }: { name: string }) => `hi ${name}`,
  fails: () => {
    throw new DomainError('BAD_REQUEST', 'no such product', { parameter: 'id' });
  },
  broken: () => {
    throw new Error('secret internals');
  },
  bump: () => 1,
};
// graphql-js reads root fields from the root value: wrap execute's schema with resolvers on the type
for (const [name, fn] of Object.entries(root)) {
  const type = name === 'bump' ? schema.getMutationType()! : schema.getQueryType()!;
  type.getFields()[name]!.resolve = (_src, args) => (fn as (a: unknown) => unknown)(args);
}
const executor = new GraphQLExecutor(schema, createErrorFormatter(createLogger({}, 'error')));
const ctx = async () => ({});
const parse = (text: string) => JSON.parse(text);

test('a query runs with its variables; a resolver DomainError keeps code, status and parameter', async () => {
  const ok = await executor.run({ query: 'query Q($n: String!) { hello(name: $n) }', variables: { n: 'Ada' } }, ctx);
  expect(ok.status).toBe(200);
  expect(parse(ok.text)).toEqual({ data: { hello: 'hi Ada' } });
  const failed = parse((await executor.run({ query: '{ fails }' }, ctx)).text);
  expect(failed.data).toEqual({ fails: null });
  expect(failed.errors[0]).toMatchObject({ message: 'no such product', path: ['fails'], extensions: { code: 'BAD_REQUEST', status: 400, parameter: 'id' } });
});

test('an unexpected error is masked as INTERNAL, without its message', async () => {
  const r = parse((await executor.run({ query: '{ broken }' }, ctx)).text);
  expect(r.errors[0]).toEqual({ message: 'Internal server error', path: ['broken'], extensions: { code: 'INTERNAL', status: 500 } });
});

test('request errors are 400 with their codes: parse, validation, variables, unknown operation, no query', async () => {
  const codeOf = async (body: unknown) => {
    const a = await executor.run(body, ctx);
    return [a.status, parse(a.text).errors[0].extensions.code, parse(a.text).errors[0].extensions.parameter];
  };
  expect(await codeOf({ query: '{ hello(' })).toEqual([400, 'GRAPHQL_VALIDATION_FAILED', undefined]);
  expect(await codeOf({ query: '{ nope }' })).toEqual([400, 'GRAPHQL_VALIDATION_FAILED', undefined]);
  expect(await codeOf({ query: 'query Q($n: String!) { hello(name: $n) }', variables: { n: 5 } })).toEqual([400, 'BAD_USER_INPUT', 'n']);
  expect(await codeOf({ query: 'query A { hello(name: "x") } query B { hello(name: "y") }', operationName: 'C' })).toEqual([400, 'BAD_REQUEST', undefined]);
  expect(await codeOf({})).toEqual([400, 'BAD_REQUEST', undefined]);
  expect(await codeOf({ query: '{ __typename }', variables: [1] })).toEqual([400, 'BAD_REQUEST', undefined]);
});

test('a refused context answers with its own HTTP status before the query is read', async () => {
  const refuse = async () => {
    throw toGraphQLError(new DomainError('UNAUTHENTICATED', 'unsigned'));
  };
  const a = await executor.run({ query: '{ not valid at all' }, refuse);
  expect(a.status).toBe(401);
  expect(parse(a.text).errors[0]).toMatchObject({ message: 'unsigned', extensions: { code: 'UNAUTHENTICATED', status: 401 } });
  expect(parse(a.text).errors[0].extensions.http).toBeUndefined();
});

test('GET runs queries only; body text: malformed JSON 400, over the limit 413', async () => {
  expect((await executor.run({ query: 'mutation { bump }' }, ctx, true)).status).toBe(405);
  expect((await executor.run({ query: 'mutation { bump }' }, ctx)).status).toBe(200);
  expect((await executor.runText('{"query":', ctx, 1024)).answer).toMatchObject({ status: 400 });
  expect(parse((await executor.runText('{"query":', ctx, 1024)).answer.text).errors[0].extensions.code).toBe('INVALID_JSON');
  expect((await executor.runText(JSON.stringify({ query: `{ hello(name: "${'x'.repeat(2000)}") }` }), ctx, 1024)).answer.status).toBe(413);
  const { answer, body } = await executor.runText(JSON.stringify({ query: '{ hello(name: "x") }', operationName: undefined }), ctx, 1024);
  expect(answer.status).toBe(200);
  expect(body).toEqual({ query: '{ hello(name: "x") }' });
});
