// The Subscription root on the composed API schema, executed by graphql-js as the gateway does:
// follow-up queries carry the variables the selection uses, and one event reaching many
// subscribers with the same selection runs one follow-up query, not one per subscriber.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse, subscribe, type ExecutionResult } from 'graphql';
import { Supergraph } from '@apollo/federation-internals';
import { createMemoryPubSub } from '../../lib/pubsub.js';
import { productEventsTopic } from '../../subgraphs/catalog/event-types.js';
import { buildSubscriptionSchema, type RunQuery } from '../../gateway/subscriptions/schema.js';
import { subscriptionRegistry } from '../../gateway/subscriptions/registry.js';
import { loadContract } from '../../lib/contract.js';
import type { GatewayContext } from '../../gateway/data-source.js';

const apiSchema = Supergraph.build(readFileSync(resolve(import.meta.dirname, '../../schema/supergraph.graphql'), 'utf8')).apiSchema().toGraphQLJSSchema();

function tenant(requestId: string, appId = 'app_1'): GatewayContext {
  return { tenant: { kind: 'key', requestId, scopes: ['products:read'], appId, keyId: 'k1', environment: 'test' } };
}

function setup() {
  const pubsub = createMemoryPubSub();
  const calls: { query: string; variables: Record<string, unknown> }[] = [];
  const run: RunQuery = async (query, variables) => {
    calls.push({ query, variables });
    await new Promise((r) => setTimeout(r, 20));
    return { data: { product: { id: typeof variables.entityId === 'string' ? variables.entityId : variables._entityId, name: 'Lamp', variants: [] } } };
  };
  return { pubsub, calls, schema: buildSubscriptionSchema(apiSchema, subscriptionRegistry(loadContract().subscriptions), pubsub, run) };
}

async function start(schema: import('graphql').GraphQLSchema, query: string, ctx: GatewayContext, variableValues: Record<string, unknown> = {}) {
  const it = (await subscribe({ schema, document: parse(query), contextValue: ctx, variableValues })) as AsyncGenerator<ExecutionResult>;
  const first = it.next();
  return { first, stop: () => it.return?.(undefined) };
}

const flush = () => new Promise((r) => setTimeout(r, 10));

describe('subscription follow-up queries', () => {
  test('one event, ten subscribers with the same selection: one follow-up query', async () => {
    const { pubsub, calls, schema } = setup();
    const subs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => start(schema, 'subscription { productEvents { event product { id name } } }', tenant(`req-${i}`))),
    );
    await flush();
    await pubsub.publish(productEventsTopic('app_1', 'test'), { event: 'product.created', occurredAt: new Date().toISOString(), productId: 'p1' });
    const results = await Promise.all(subs.map((s) => s.first));
    for (const r of results) expect(r.value).toEqual({ data: { productEvents: { event: 'product.created', product: { id: 'p1', name: 'Lamp' } } } });
    expect(calls).toHaveLength(1);
    await Promise.all(subs.map((s) => s.stop()));
  });

  test('different selections or callers get their own follow-up', async () => {
    const { pubsub, calls, schema } = setup();
    const subs = await Promise.all([
      start(schema, 'subscription { productEvents { product { id } } }', tenant('a')),
      start(schema, 'subscription { productEvents { product { id name } } }', tenant('b')),
      start(schema, 'subscription { productEvents { product { id } } }', { tenant: { ...tenant('c').tenant, keyId: 'k2' } }),
    ]);
    await flush();
    await pubsub.publish(productEventsTopic('app_1', 'test'), { event: 'product.updated', occurredAt: new Date().toISOString(), productId: 'p2' });
    await Promise.all(subs.map((s) => s.first));
    expect(calls).toHaveLength(3);
    await Promise.all(subs.map((s) => s.stop()));
  });

  test('variables used in the selection (directly and through fragments) are declared and forwarded', async () => {
    const { pubsub, calls, schema } = setup();
    const query = `subscription Watch($withName: Boolean!, $entityId: Boolean!, $unused: Int) {
      productEvents { product { id @include(if: $entityId) name @include(if: $withName) ...More } }
    }
    fragment More on Product { variants { id sku @skip(if: $withName) } }`;
    const s = await start(schema, query, tenant('v'), { withName: true, entityId: true, unused: 3 });
    await flush();
    await pubsub.publish(productEventsTopic('app_1', 'test'), { event: 'product.updated', occurredAt: new Date().toISOString(), productId: 'p3' });
    const r = (await s.first).value as ExecutionResult;
    expect(r.errors).toBeUndefined();
    expect(calls).toHaveLength(1);
    const { query: q, variables } = calls[0];
    expect(variables).toEqual({ _entityId: 'p3', entityId: true, withName: true });
    expect(q).toContain('$withName: Boolean!');
    expect(q).not.toContain('$unused');
    expect(q).toContain('fragment More on Product');
    await s.stop();
  });
});
