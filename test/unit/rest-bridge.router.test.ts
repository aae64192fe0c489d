import { compileRouter } from '../../rest-bridge/router.js';

const entries = [
  { method: 'GET', path: '/platforms' },
  { method: 'POST', path: '/platforms' },
  { method: 'GET', path: '/platforms/:unique_id' },
  { method: 'GET', path: '/v1/products/:id' },
  { method: 'GET', path: '/v1/products/sku/:sku' },
  { method: 'GET', path: '/v1/products/search' },
  { method: 'POST', path: '/accounts/:url_id/apps/:app_id/api_keys' },
  { method: 'GET', path: '/health' },
];
const router = compileRouter(entries);

describe('rest-bridge router', () => {
  test('matches static paths by method', () => {
    const m = router.match('POST', '/platforms');
    expect(m).toMatchObject({ kind: 'match', entry: { method: 'POST', path: '/platforms' }, params: {} });
  });

  test('extracts and percent-decodes params', () => {
    const m = router.match('POST', '/accounts/acme%20co/apps/app_1/api_keys');
    expect(m).toMatchObject({ kind: 'match', params: { url_id: 'acme co', app_id: 'app_1' } });
  });

  test('a trailing slash is ignored', () => {
    expect(router.match('GET', '/platforms/')).toMatchObject({ kind: 'match', entry: { path: '/platforms' } });
  });

  test('static segments beat params', () => {
    expect(router.match('GET', '/v1/products/search')).toMatchObject({ kind: 'match', entry: { path: '/v1/products/search' } });
    expect(router.match('GET', '/v1/products/prod_1')).toMatchObject({ kind: 'match', entry: { path: '/v1/products/:id' }, params: { id: 'prod_1' } });
    expect(router.match('GET', '/v1/products/sku/ABC-1')).toMatchObject({ kind: 'match', params: { sku: 'ABC-1' } });
  });

  test('static segments beat params whatever the table\'s size and order (the sort is total)', () => {
    // a table of many lengths, the param route first: a sort treating a shorter path as "equal" to
    // both longer ones could leave /v1/products/:id ahead of /v1/products/search
    const many = [{ method: 'GET', path: '/v1/products/:id' }, ...Array.from({ length: 300 }, (_, i) => ({ method: 'GET', path: i % 2 ? `/v1/x${i}` : `/a${i}/:p/b` })), { method: 'GET', path: '/v1' }, { method: 'GET', path: '/v1/products/search' }];
    for (const table of [many, [...many].reverse()]) {
      const m = compileRouter(table).match('GET', '/v1/products/search');
      expect(m.kind === 'match' && m.entry.path).toBe('/v1/products/search');
    }
  });

  test('a known path with another method is 405 with the allowed methods', () => {
    const m = router.match('DELETE', '/platforms');
    expect(m).toMatchObject({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
  });

  test('unknown paths, extra segments and empty params are not found', () => {
    expect(router.match('GET', '/nope').kind).toBe('not_found');
    expect(router.match('GET', '/platforms/a/b').kind).toBe('not_found');
    expect(router.match('GET', '/platforms//').kind).toBe('match'); // trailing slashes collapse to /platforms
    expect(router.match('GET', '/accounts//apps/x/api_keys').kind).toBe('not_found');
    expect(router.match('GET', '/').kind).toBe('not_found');
  });

  test('malformed percent-encoding is a bad path, not a crash', () => {
    expect(router.match('GET', '/platforms/%E0%A4%A').kind).toBe('bad_path');
  });

  test('duplicate routes are refused at compile time', () => {
    expect(() => compileRouter([{ method: 'GET', path: '/a/:x' }, { method: 'GET', path: '/a/:y' }])).toThrow(/duplicate route/);
  });
});
