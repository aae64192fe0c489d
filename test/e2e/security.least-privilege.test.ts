// issue 12 item 7: least privilege on reads. Search analytics need a secret key (publishable keys,
// which live in browsers, can search and send click events only); /health/detailed without
// credentials shows up or down per component, no error text.
import { createTenant, gql, jsonApi, mintToken, rest, stack, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { createIndex, search } from './search.helpers.js';

let t: Tenant;
let uid: string;
let pk: Record<string, string>;
beforeAll(async () => {
  t = await createTenant({ plan: 'growth' });
  uid = await createIndex(t, { primary_key: 'id' });
  pk = { 'x-app-id': t.appId, 'x-api-key': t.publishableKey };
});

const event = (headers: Record<string, string>, attrs: Record<string, unknown>) =>
  rest('POST', '/search/v1/analytics/events', { body: jsonApi('search_events', { index_uid: uid, ...attrs }), headers });

describe('search analytics', () => {
  test.each(['popular-searches', 'no-result-searches', 'clicks'])('GET …/analytics/%s: publishable key → 403, secret key → 200', async (report) => {
    const path = `/search/v1/indexes/${uid}/analytics/${report}`;
    expectServiceError(await rest('GET', path, { headers: pk }), 'search', 403, 'INSUFFICIENT_SCOPE');
    expect((await rest('GET', path, { headers: t.keyHeaders })).status).toBe(200);
  });

  test('a publishable key searches and sends click events, but no other event type', async () => {
    expect((await search({ ...t, keyHeaders: pk }, uid, { query: 'lamp' })).status).toBe(200);
    expect((await event(pk, { event_type: 'click', query: 'lamp', document_id: 'p1', position: 1 })).status).toBe(201);
    expectServiceError(await event(pk, { event_type: 'conversion', document_id: 'p1' }), 'search', 403, 'INSUFFICIENT_SCOPE');
    expect((await event(t.keyHeaders, { event_type: 'conversion', document_id: 'p1' })).status).toBe(201);
  });

  test('over GraphQL too', async () => {
    const r = await gql('query($u: String!) { popularSearches(indexUid: $u) { totalSearches } }', { u: uid }, pk);
    expect(r.body.errors?.[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('/health/detailed', () => {
  const SECRETISH = /error|database|ECONN|version|details/i;

  test('REST, no credentials: status per component only (latency allowed), no error text', async () => {
    const r = await rest('GET', '/health/detailed');
    for (const [name, c] of Object.entries(r.body.components as Record<string, Record<string, unknown>>)) {
      if (name === 'rest-bridge') continue; // the bridge's own line: its version and uptime
      expect(Object.keys(c).filter((k) => !['status', 'latency_ms'].includes(k))).toEqual([]);
      expect(['ok', 'unavailable', 'degraded']).toContain(c.status);
    }
  });

  test('gateway, no credentials or an ordinary admin token: no details; a super-admin token: details', async () => {
    const url = stack().gateway.replace(/\/graphql$/, '/health/detailed');
    const anon = await (await fetch(url)).json();
    expect(JSON.stringify(anon.components)).not.toMatch(SECRETISH);
    const admin = await (await fetch(url, { headers: { authorization: `Bearer ${mintToken({ scopes: ['platform:admin'] })}` } })).json();
    expect(JSON.stringify(admin.components)).not.toMatch(SECRETISH);
    const superAdmin = await (await fetch(url, { headers: { authorization: `Bearer ${mintToken({ scopes: ['platform:superadmin'] })}` } })).json();
    expect(superAdmin.components.platform).toMatchObject({ status: 'ok', database: 'ok' });
  });
});
