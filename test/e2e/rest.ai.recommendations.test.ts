// Recommendations end to end: events recorded per app (201), the model refreshed by its job (not
// per request), item-item answers with score, reason and model_version, the popularity fallback
// for a new user, filters, incremental refresh, tenancy and errors.
import { jsonApi, rest, gql } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';

const ev = (u: AiUser, user_id: string, event_type: string, item_id: string, metadata?: Record<string, unknown>) =>
  rest('POST', '/ai/v1/recommendations/events', { body: jsonApi('recommendation_events', { user_id, event_type, item_id, ...(metadata ? { metadata } : {}) }), headers: u.headers });

const rec = (u: AiUser, attrs: Record<string, unknown>) => rest('POST', '/ai/v1/recommendations', { body: jsonApi('recommendation_requests', attrs), headers: u.headers });

async function modelAt(u: AiUser, version: number): Promise<void> {
  for (let i = 0; i < 150; i++) {
    const r = await rec(u, { user_id: 'nobody', limit: 1 });
    if (Number(r.body.data.attributes.model_version.replace('item-item-v', '')) >= version) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`model did not reach v${version}`);
}

test('item-item CF after the refresh job: a tent viewer gets the lantern; a new user gets popular items; filters; scores and reasons', async () => {
  const u = await aiUser();
  const camping = { category: 'camping' };
  const r = await ev(u, 'alice', 'view', 'tent', camping);
  expect(r.status).toBe(201);
  expect(r.body.data).toMatchObject({ type: 'recommendation_events', attributes: { user_id: 'alice', event_type: 'view', item_id: 'tent', weight: 1, status: 'queued' } });
  // before the job ran, nothing is known: the answer is empty, not computed on the request
  for (const [user, type, item, meta] of [
    ['alice', 'purchase', 'lantern', camping],
    ['bob', 'view', 'tent', camping],
    ['bob', 'add_to_cart', 'lantern', camping],
    ['bob', 'view', 'stove', camping],
    ['carol', 'click', 'laptop', { category: 'computers' }],
    ['carol', 'purchase', 'mouse', { category: 'computers' }],
    ['dave', 'view', 'laptop', { category: 'computers' }],
    ['dave', 'like', 'usb-hub', { category: 'computers' }],
    ['erin', 'view', 'mouse', { category: 'computers' }],
    ['erin', 'rating', 'mouse', { category: 'computers', rating: 5 }],
  ] as const) {
    expect((await ev(u, user, type, item, meta)).status).toBe(201);
  }
  await modelAt(u, 1);
  // wait until the model holds all 11 events (one refresh or more): erin's rating, the last event,
  // makes mouse (9) more popular than lantern (8)
  for (let i = 0; i < 150; i++) {
    const x = (await rec(u, { user_id: 'brand-new-user', limit: 2 })).body.data.attributes.recommendations;
    if (x[0]?.item_id === 'mouse' && Math.abs(x[1]?.score - 8 / 9) < 0.01) break;
    await new Promise((res) => setTimeout(res, 100));
  }

  const f = await rec(u, { user_id: 'frank-viewed-tent-only', item_id: 'tent', limit: 3 });
  expect(f.status).toBe(200);
  expect(f.body.data).toMatchObject({ type: 'recommendation_results', attributes: { model_version: expect.stringMatching(/^item-item-v\d+$/), model: 'item-item-cf' } });
  const recs = f.body.data.attributes.recommendations;
  expect(recs[0]).toEqual({ item_id: 'lantern', score: 1, reason: 'similar to tent' });
  expect(recs.map((x: any) => x.item_id)).not.toContain('tent');
  for (let i = 1; i < recs.length; i++) expect(recs[i].score).toBeLessThanOrEqual(recs[i - 1].score);

  const laptop = (await rec(u, { user_id: 'dave' })).body.data.attributes.recommendations;
  expect(laptop[0]).toMatchObject({ item_id: 'mouse', reason: 'similar to laptop' });
  expect(laptop.map((x: any) => x.item_id)).not.toContain('usb-hub');

  const cold = (await rec(u, { user_id: 'brand-new-user', limit: 3 })).body.data.attributes.recommendations;
  expect(cold.map((x: any) => x.reason)).toEqual(['popular', 'popular', 'popular']);
  // mouse: purchase 5 + view 1 + rating 5 (weight 3) = 9; lantern: purchase 5 + add_to_cart 3 = 8
  expect(cold.slice(0, 2).map((x: any) => x.item_id)).toEqual(['mouse', 'lantern']);
  expect(cold[0].score).toBe(1);
  expect(cold[1].score).toBeCloseTo(8 / 9, 2);

  const filtered = (await rec(u, { user_id: 'brand-new-user', filters: { category: 'computers', exclude_item_ids: ['mouse'] } })).body.data.attributes.recommendations;
  expect(filtered.map((x: any) => x.item_id).sort()).toEqual(['laptop', 'usb-hub']);
  const ctx = (await rec(u, { context: 'laptop, mouse', filters: { category: ['computers'] } })).body.data.attributes.recommendations;
  expect(ctx[0]).toMatchObject({ item_id: 'usb-hub' });

  const g = await gql('mutation($i: RecommendationInput!) { recommendations(input: $i) { modelVersion recommendations { itemId reason } } }', { i: { itemId: 'tent', limit: 1 } }, u.headers);
  expect(g.body.data.recommendations.recommendations).toEqual([{ itemId: 'lantern', reason: 'similar to tent' }]);

  // another tenant has no events: nothing to recommend
  const b = await aiUser();
  expect((await rec(b, { item_id: 'tent' })).body.data.attributes).toMatchObject({ recommendations: [], model_version: 'item-item-v0' });
});

test('the model refreshes incrementally: new events change answers after the job, and model_version grows', async () => {
  const u = await aiUser();
  await ev(u, 'a', 'view', 'x');
  await ev(u, 'a', 'view', 'y');
  await modelAt(u, 1);
  const v1 = (await rec(u, { item_id: 'x' })).body.data.attributes;
  expect(v1.recommendations.map((r: any) => r.item_id)).toEqual(['y']);
  await ev(u, 'b', 'purchase', 'x');
  await ev(u, 'b', 'purchase', 'z');
  await ev(u, 'c', 'purchase', 'x');
  await ev(u, 'c', 'purchase', 'z');
  let v2: any;
  for (let i = 0; i < 100; i++) {
    v2 = (await rec(u, { item_id: 'x' })).body.data.attributes;
    if (v2.recommendations[0]?.item_id === 'z') break;
    await new Promise((res) => setTimeout(res, 100));
  }
  expect(v2.recommendations.map((r: any) => r.item_id)).toEqual(['z', 'y']);
  expect(Number(v2.model_version.slice(11))).toBeGreaterThan(Number(v1.model_version.slice(11)));
});

test('errors: unknown event type, a rating without a value, a future timestamp, bad limit and filters → 422 naming them', async () => {
  const u = await aiUser();
  expectServiceError(await ev(u, 'a', 'share', 'x'), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'event_type' });
  expectServiceError(await ev(u, 'a', 'rating', 'x'), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'metadata.rating' });
  const future = rest('POST', '/ai/v1/recommendations/events', { body: jsonApi('recommendation_events', { user_id: 'a', event_type: 'view', item_id: 'x', timestamp: '2999-01-01T00:00:00Z' }), headers: u.headers });
  expectServiceError(await future, 'ai', 422, 'VALIDATION_FAILED', { parameter: 'timestamp' });
  expectServiceError(await rec(u, { user_id: 'a', limit: 0 }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'limit' });
  expectServiceError(await rec(u, { user_id: 'a', filters: { exclude_item_ids: 'x' } }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'filters.exclude_item_ids' });
  expectServiceError(await rec(u, { user_id: 'a', filters: { category: { nested: true } } }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'filters.category' });
});
