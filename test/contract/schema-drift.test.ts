// The contract is generated and checked: SDL emitted from code must equal the committed files,
// composition must succeed and equal the committed supergraph, and every REST bridge operation
// and the gateway's subscription SDL must validate against the composed API schema.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { extendSchema, parse, validate, type GraphQLSchema } from 'graphql';
import { FIELD_ACCESS_FILE, ROOT, compose, emitFieldAccess, emitSdl, readSupergraphConfig } from '../../scripts/supergraph.js';
import { SUBSCRIPTION_SDL } from '../../gateway/subscriptions/registry.js';
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

  test.each(readSupergraphConfig().map((e) => [e.name, e.file]))('committed SDL of %s matches the code (run `npm run compose`)', (name, file) => {
    expect(read(file)).toBe(sdl.get(name as never));
  });

  test('committed supergraph matches the composition of the committed SDL', () => {
    const result = compose(sdl);
    expect(result.errors).toBeUndefined();
    expect(read(resolve(ROOT, 'schema', 'supergraph.graphql'))).toBe(result.supergraphSdl!.trim() + '\n');
  });

  test('committed field roles (schema/field-access.json) match the @Authorized declarations (run `npm run compose`)', () => {
    expect(read(FIELD_ACCESS_FILE)).toBe(emitFieldAccess());
  });

  test('committed subscription SDL matches the gateway registry and extends the API schema', () => {
    expect(read(resolve(ROOT, 'schema', 'subscriptions.graphql'))).toBe(SUBSCRIPTION_SDL.trim() + '\n');
    const withSubs = extendSchema(apiSchema, parse(SUBSCRIPTION_SDL));
    expect(Object.keys(withSubs.getSubscriptionType()!.getFields()).length).toBeGreaterThan(0);
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
