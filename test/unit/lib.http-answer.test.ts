// lib/http.ts answerGraphQL: over HTTP the answer is text; a request handed over as a value (the REST
// bridge's in-process calls) comes back as a value, serialised only if its body is read.
import { ApolloServer } from '@apollo/server';
import { answerGraphQL, sendAnswer, storedAnswer } from '../../lib/http.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

const typeDefs = 'type Query { hello(name: String!): String!, item: Item } type Item { id: ID!, sizeName: String }';
const resolvers = { Query: { hello: (_: unknown, a: { name: string }) => `hi ${a.name}`, item: () => ({ id: 'i1', sizeName: 'L' }) } };

describe('answerGraphQL', () => {
  const server = new ApolloServer({
    typeDefs,
    resolvers,
    plugins: [{ async requestDidStart() { return { async willSendResponse({ response }) { response.http.headers.set('x-seen', 'yes'); } }; } }],
  });
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  const context = async () => ({});

  test('a request given as a value answers a value; the body is written only when read, and matches it', async () => {
    const a = await answerGraphQL(server, { method: 'POST', headers: {}, url: '/graphql', parsed: { query: '{ item { id sizeName } hello(name: "x") }' } }, context);
    expect(a.status).toBe(200);
    expect(a.headers['x-seen']).toBe('yes');
    expect(a.value).toEqual({ data: { item: { id: 'i1', sizeName: 'L' }, hello: 'hi x' } });
    expect(JSON.parse(a.body)).toEqual(a.value);
    expect(a.route).toBe('graphql (anonymous)');
  });

  test('request errors keep their status and formatted errors as a value', async () => {
    const a = await answerGraphQL(server, { method: 'POST', headers: {}, url: '/graphql', parsed: { query: '{ nope }', operationName: 'X' } }, context);
    expect(a.status).toBe(400);
    expect((a.value as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const v = await answerGraphQL(server, { method: 'POST', headers: {}, url: '/graphql', parsed: { query: 'query($n: String!) { hello(name: $n) }', variables: {} } }, context);
    expect(v.status).toBe(400);
    expect((v.value as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  test('over HTTP the answer is the body text, with no value', async () => {
    const raw = Buffer.from(JSON.stringify({ query: '{ hello(name: "y") }' }));
    const a = await answerGraphQL(server, { method: 'POST', headers: { 'content-type': 'application/json' }, url: '/graphql', raw }, context);
    expect(a.status).toBe(200);
    expect(a.value).toBeUndefined();
    expect(JSON.parse(a.body)).toEqual({ data: { hello: 'hi y' } });
    expect(a.headers['x-seen']).toBe('yes');
  });
});

describe('storedAnswer', () => {
  /** what sendAnswer writes: the status and headers in one writeHead, then the body */
  const sent = (a: Parameters<typeof sendAnswer>[2]) => {
    const out: { status?: number; headers?: Record<string, string>; body?: unknown } = {};
    const res = { writeHead: (s: number, h: Record<string, string>) => Object.assign(out, { status: s, headers: h }), end: (b: unknown) => (out.body = b) } as unknown as ServerResponse;
    sendAnswer({} as IncomingMessage, res, a);
    return out;
  };
  test('the stored bytes are sent as they are; body decodes them when read', () => {
    const bytes = Buffer.from('{"data":{"é":1}}');
    const a = storedAnswer(200, { age: '3' }, bytes, 'q');
    expect(a.body).toBe('{"data":{"é":1}}');
    const out = sent(a);
    expect(out.body).toBe(bytes);
    expect(out).toMatchObject({ status: 200, headers: { age: '3' } });
  });
  test('a body replaced by a later hook, or a copy of the answer, is sent as its text', () => {
    const a = storedAnswer(200, {}, Buffer.from('{"data":{}}'), 'q');
    const copy = { ...a, body: '{"data":{},"extensions":{"x":1}}' };
    expect(sent(copy).body).toBe('{"data":{},"extensions":{"x":1}}');
    a.body = '{"data":{"changed":true}}';
    expect(sent(a).body).toBe('{"data":{"changed":true}}');
  });
});
