// The contract is generated and checked: the subgraphs' SDL, printed from code, must compose, and
// the composition must equal the committed supergraph (the one committed schema), the contract (schema/contract.json:
// error codes, event types, subscription fields, limits) must equal what the subgraphs declare, and
// every REST bridge operation and the contract's subscription SDL must validate against the composed
// API schema.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { extendSchema, parse, validate, type GraphQLSchema } from 'graphql';
import { CONTRACT_FILE, FIELD_ACCESS_FILE, ROOT, buildContract, compose, emitContract, emitFieldAccess, emitSdl } from '../../scripts/supergraph.js';
import { subscriptionRegistry } from '../../gateway/subscriptions/registry.js';
import { loadContract } from '../../lib/contract.js';
import { loadOperations } from '../../rest-bridge/operations.js';

const read = (p: string) => readFileSync(p, 'utf8');

describe('schema contract', () => {
  let sdl: Awaited<ReturnType<typeof emitSdl>>;
  let apiSchema: GraphQLSchema;

  beforeAll(async () => {
    sdl = await emitSdl();
    const result = compose(sdl);
    if (result.errors) throw new Error(`composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
    apiSchema = result.schema.toAPISchema().toGraphQLJSSchema();
  });

  test('`npm run compose -- --print <subgraph>` prints that SDL whole (a pipe included); an unknown name exits 2', () => {
    const run = (name: string) =>
      spawnSync(process.execPath, ['--import', '@swc-node/register/esm-register', 'scripts/compose.ts', '--print', name], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    const ai = run('ai');
    expect([ai.status, ai.stdout]).toEqual([0, sdl.get('ai')]);
    const unknown = run('nope');
    expect([unknown.status, unknown.stdout, unknown.stderr.trim()]).toEqual([2, '', '--print takes a subgraph: platform, ai, catalog, search']);
  }, 60_000);

  test('committed supergraph matches the composition of the SDL printed from code (run `npm run compose`)', () => {
    const result = compose(sdl);
    expect(result.errors).toBeUndefined();
    expect(read(resolve(ROOT, 'schema', 'supergraph.graphql'))).toBe(result.supergraphSdl!.trim() + '\n');
  });

  test('committed field roles (schema/field-access.json) match the @Authorized declarations (run `npm run compose`)', () => {
    expect(read(FIELD_ACCESS_FILE)).toBe(emitFieldAccess());
  });

  test('committed contract (schema/contract.json) matches the subgraph definitions (run `npm run compose`)', () => {
    expect(read(CONTRACT_FILE)).toBe(emitContract());
    expect(loadContract()).toEqual(JSON.parse(emitContract()));
  });

  test('the contract\'s subscription SDL extends the API schema with every declared field', () => {
    const { sdl, fields } = buildContract().subscriptions;
    const withSubs = extendSchema(apiSchema, parse(sdl));
    const root = withSubs.getSubscriptionType()!.getFields();
    expect(Object.keys(root).sort()).toEqual(fields.map((f) => f.field).sort());
    // each field's event type, and the entity field and root query its events resolve through
    for (const def of subscriptionRegistry(buildContract().subscriptions).defs) {
      const event = withSubs.getType(def.eventType);
      expect([def.field, event && 'getFields' in event && def.link.field in event.getFields()]).toEqual([def.field, true]);
      expect([def.field, def.link.query in withSubs.getQueryType()!.getFields()]).toEqual([def.field, true]);
    }
  });

  test('every REST bridge operation validates against the supergraph API schema', () => {
    const ops = loadOperations();
    expect(ops.size).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const [name, op] of ops) {
      const errors = validate(apiSchema, parse(op.source));
      for (const e of errors) failures.push(`${name}: ${e.message}`);
    }
    expect(failures).toEqual([]);
  });
});
