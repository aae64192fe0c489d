// gateway/graphql-answer.ts refusal(): a request refused before it runs. Refused for want of a service (the API key
// lookup while the platform subgraph is unreachable, as during a roll: test/topology) it is a 503
// that says when to retry, in the Retry-After header and in meta.retryAfterMs (the REST bridge's).
import { refusal } from '../../gateway/graphql-answer.js';

test('SERVICE_UNAVAILABLE: 503 with Retry-After and meta.retryAfterMs', () => {
  const a = refusal({ ok: false, code: 'SERVICE_UNAVAILABLE', message: 'API key verification is temporarily unavailable' }, 'graphql');
  expect(a.status).toBe(503);
  expect(a.headers['retry-after']).toBe('1');
  expect(JSON.parse(a.body).errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: 1000 } });
});

test('UNAUTHENTICATED: no retry time', () => {
  const a = refusal({ ok: false, code: 'UNAUTHENTICATED', message: 'Invalid API key' }, 'graphql');
  expect(a.status).toBe(401);
  expect(a.headers['retry-after']).toBeUndefined();
  expect(JSON.parse(a.body).errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
});
