// The one endpoint shows the whole schema: introspection and the SDL served by the running gateway
// include the Subscription root with every field the contract declares (schema/contract.json).
import { buildClientSchema, getIntrospectionQuery, parse, Kind, type IntrospectionQuery } from 'graphql';
import { loadContract } from '../../lib/contract.js';
import { gql, stack } from '../harness/client.js';

const declared = parse(loadContract().subscriptions.sdl).definitions.flatMap((d) =>
  d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Subscription' ? (d.fields ?? []).map((f) => f.name.value) : [],
);

describe('gateway introspection', () => {
  test('introspection has the Subscription root with every registered field, beside the federated Query', async () => {
    const r = await gql<IntrospectionQuery>(getIntrospectionQuery());
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const schema = buildClientSchema(r.body.data!);
    const sub = schema.getSubscriptionType();
    expect(sub?.name).toBe('Subscription');
    expect(declared.length).toBeGreaterThan(0);
    expect(Object.keys(sub!.getFields()).sort()).toEqual([...declared].sort());
    expect(schema.getType('ProductEvent')).toBeDefined();
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['product', 'searchTask']));
  });

  test('a __type query for an event type and a mixed query are answered', async () => {
    const t = await gql<any>('{ __type(name: "SearchTaskEvent") { name fields { name } } }');
    expect(t.body.data.__type.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['taskId', 'task']));
    const mixed = await gql<any>('{ __typename }');
    expect(mixed.body.data).toEqual({ __typename: 'Query' });
  });

  test('GET /graphql/schema.graphql serves the SDL with the Subscription root', async () => {
    const r = await fetch(stack().gateway.replace(/\/graphql$/, '/graphql/schema.graphql'));
    expect(r.status).toBe(200);
    const sdl = await r.text();
    for (const f of declared) expect(sdl).toMatch(new RegExp(`\\b${f}[(:]`));
    expect(sdl).toContain('type Query {');
  });
});
