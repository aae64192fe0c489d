// The gateway core on a supergraph of its own (gateway/core.ts, scripts/federation-gateway.ts): two
// subgraphs this test serves, composed here; the core started as its own process answers /health and
// federated queries (entities, aliases, @skip, __typename, a non-null error's null propagation) as
// stock @apollo/gateway does, and sends the subgraphs no tenant context (it knows only federation).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloGateway } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { answerGraphQL, readGraphQLCall, sendAnswer } from '../../lib/http.js';
import { TENANT_HEADER } from '../../lib/tenant.js';

// offsets 1500–1502 of TEST_PORT_BASE
const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 1500;
const ROOT = resolve(import.meta.dirname, '..', '..');

const products = [
  { id: 'p1', name: 'One', price: 10 },
  { id: 'p2', name: 'Two', price: 20 },
];
const SUBGRAPHS = [
  {
    name: 'products',
    typeDefs: `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
      type Query { products: [Product!]! product(id: ID!): Product }
      type Product @key(fields: "id") { id: ID! name: String price: Int }`,
    resolvers: {
      Query: { products: () => products, product: (_: unknown, { id }: { id: string }) => products.find((p) => p.id === id) ?? null },
      Product: { __resolveReference: (ref: { id: string }) => products.find((p) => p.id === ref.id) ?? null },
    },
  },
  {
    name: 'reviews',
    typeDefs: `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
      type Product @key(fields: "id") { id: ID! reviews: [Review!] }
      type Review { body: String! stars: Int }`,
    resolvers: {
      // p2's second review has no body: a non-null field's error nulls its parent list, as federation says
      Product: { reviews: (p: { id: string }) => (p.id === 'p1' ? [{ body: 'good', stars: 5 }] : [{ body: 'fine', stars: 3 }, { body: null, stars: 1 }]) },
    },
  },
];

const QUERIES = [
  '{ products { id name reviews { body stars } } }',
  '{ a: product(id: "p1") { __typename label: name reviews { s: stars } } b: product(id: "nope") { id } }',
  'query ($skip: Boolean = true) { products { id price @skip(if: $skip) reviews @include(if: true) { __typename stars } } }',
];

let subgraphServers: Server[] = [];
const seen: IncomingHttpHeaders[] = [];
let gatewayProcess: ChildProcess | undefined;
let stock: ApolloServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-core-'));
  subgraphServers = await Promise.all(
    SUBGRAPHS.map(async (s, i) => {
      const apollo = new ApolloServer({ schema: buildSubgraphSchema({ typeDefs: parse(s.typeDefs), resolvers: s.resolvers as never }) });
      await apollo.start();
      const server = createServer((req, res) => {
        seen.push(req.headers);
        void readGraphQLCall(req, res).then(async (call) => call && sendAnswer(req, res, await answerGraphQL(apollo, call, async () => ({}))));
      });
      await new Promise<void>((r) => server.listen(BASE + i, '127.0.0.1', () => r()));
      server.once('close', () => void apollo.stop());
      return server;
    }),
  );
  const composed = composeServices(SUBGRAPHS.map((s, i) => ({ name: s.name, typeDefs: parse(s.typeDefs), url: `http://127.0.0.1:${BASE + i}/graphql` })));
  if (!composed.supergraphSdl) throw new Error(composed.errors?.map((e) => e.message).join('\n'));
  const file = join(dir, 'supergraph.graphql');
  writeFileSync(file, composed.supergraphSdl);
  stock = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl: composed.supergraphSdl }) });
  await stock.start();
  gatewayProcess = spawn(process.execPath, ['--import', '@swc-node/register/esm-register', 'scripts/federation-gateway.ts', '--supergraph', file, '--port', String(BASE + 2)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, APOLLO_TELEMETRY_DISABLED: '1' },
  });
  await new Promise<void>((ready, fail) => {
    gatewayProcess!.stdout!.on('data', (d: Buffer) => d.toString().includes('ready at') && ready());
    gatewayProcess!.once('exit', (code) => fail(new Error(`federation-gateway exited ${code}`)));
  });
}, 120_000);

afterAll(async () => {
  if (gatewayProcess && gatewayProcess.exitCode === null) {
    const exited = new Promise((r) => gatewayProcess!.once('exit', r));
    gatewayProcess.kill();
    await exited;
  }
  await stock?.stop();
  await Promise.all(subgraphServers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

const ours = async (query: string) => {
  const r = await fetch(`http://127.0.0.1:${BASE + 2}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await r.json()) as Record<string, unknown>;
};
const theirs = async (query: string) => {
  const r = await stock.executeOperation({ query });
  return JSON.parse(JSON.stringify(r.body.kind === 'single' ? r.body.singleResult : null)) as Record<string, unknown>;
};
/** data, and each error's message and path (the gateways word extensions their own way) */
const shape = (a: Record<string, unknown>) => ({ data: a.data, errors: (a.errors as { message: string; path?: unknown }[] | undefined)?.map((e) => ({ message: e.message, path: e.path })) });

test('the core alone answers /health', async () => {
  const r = await fetch(`http://127.0.0.1:${BASE + 2}/health`);
  expect(r.status).toBe(200);
  expect(await r.json()).toMatchObject({ status: 'ok' });
});

test.each(QUERIES)('answers as stock @apollo/gateway: %s', async (query) => {
  // twice: the single-fetch pass-through decides on an operation's second sight
  for (let i = 0; i < 2; i++) expect(shape(await ours(query))).toEqual(shape(await theirs(query)));
});

test('null propagation reaches the nullable list, with the error path', async () => {
  const a = await ours(QUERIES[0]);
  expect((a.data as { products: { reviews: unknown }[] }).products[1].reviews).toBeNull();
  expect((a.errors as { path: unknown[] }[])[0].path).toEqual(['products', 1, 'reviews', 1, 'body']);
});

test('the subgraphs get no tenant context from the core', () => {
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((h) => h[TENANT_HEADER] === undefined)).toBe(true);
});
