// Subgraphs name an error's parameter in GraphQL terms; the REST bridge names it as a REST client
// writes it (rest-bridge/naming.ts restParameter, applied by errors.ts fromGraphQLError).
import { restMessage, restParameter } from '../../rest-bridge/naming.js';
import { fromGraphQLError } from '../../rest-bridge/errors.js';

const LIST_QUERY = ['page[number]', 'page[size]', 'filter[status]', 'filter[price_min]', 'filter[price_max]', 'filter[created_after]'].map((name) => ({ name }));

describe('restParameter', () => {
  test.each([
    ['urlId', 'url_id'],
    ['bundleItems[2].productId', 'bundle_items[2].product_id'],
    ['seo.title', 'seo.title'],
    ['filters.includeSeen', 'filters.include_seen'],
    ['queries[0].indexUid', 'queries[0].index_uid'],
    // already in REST spelling, or no GraphQL name: unchanged
    ['url_id', 'url_id'],
    ['page[size]', 'page[size]'],
    ['filter[price_min]', 'filter[price_min]'],
    ['X-Platform', 'X-Platform'],
    ['q', 'q'],
  ])('%s → %s', (graphql, rest) => expect(restParameter(graphql)).toBe(rest));

  test("a route's JSON:API query families are named as the route writes them", () => {
    expect(restParameter('pageSize', LIST_QUERY)).toBe('page[size]');
    expect(restParameter('page', LIST_QUERY)).toBe('page[number]');
    expect(restParameter('filter.priceMin', LIST_QUERY)).toBe('filter[price_min]');
    // a route without them (search's plain `page`) keeps the plain name
    expect(restParameter('page', [{ name: 'q' }, { name: 'page' }])).toBe('page');
    expect(restParameter('pageSize')).toBe('page_size');
    // a filter the route feeds to a plain argument says so (QueryParamSpec.graphql)
    expect(restParameter('type', [{ name: 'filter[type]', graphql: 'type' }])).toBe('filter[type]');
    expect(restMessage('type must be one of manual, automated', 'type', [{ name: 'filter[type]', graphql: 'type' }])).toBe('filter[type] must be one of manual, automated');
  });

  test("below a free-form value the names are the client's own", () => {
    const freeForm = new Set(['metadata', 'documents', 'placeholders']);
    expect(restParameter('metadata.shelfLife', [], freeForm)).toBe('metadata.shelfLife');
    expect(restParameter('documents[3].productId', [], freeForm)).toBe('documents[3].productId');
    expect(restParameter('placeholders.userName', [], freeForm)).toBe('placeholders.userName');
  });
});

describe('restMessage', () => {
  test('the parameter and the route filters a message names are spelled as on REST', () => {
    expect(restMessage('urlId must not be empty', 'urlId')).toBe('url_id must not be empty');
    expect(restMessage('filter.priceMin is above filter.priceMax', 'filter.priceMin', LIST_QUERY)).toBe('filter[price_min] is above filter[price_max]');
    expect(restMessage('pageSize must be an integer from 1 to 100', 'pageSize', LIST_QUERY)).toBe('page[size] must be an integer from 1 to 100');
    // a word that only contains the name is left alone
    expect(restMessage('the urlIdentifier urlIds', 'urlId')).toBe('the urlIdentifier urlIds');
  });
});

describe('fromGraphQLError', () => {
  test("names a subgraph's GraphQL parameter in REST spelling, in the parameter and the message", () => {
    const e = { message: 'filter.createdAfter must be an ISO 8601 date-time', extensions: { code: 'BAD_REQUEST', status: 400, parameter: 'filter.createdAfter' } };
    expect(fromGraphQLError(e, 200, LIST_QUERY)).toEqual({ code: 'BAD_REQUEST', status: 400, message: 'filter[created_after] must be an ISO 8601 date-time', parameter: 'filter[created_after]' });
    const m = { message: 'metadata.shelfLife is too long', extensions: { code: 'VALIDATION_FAILED', status: 422, parameter: 'metadata.shelfLife' } };
    expect(fromGraphQLError(m)).toMatchObject({ parameter: 'metadata.shelfLife', message: 'metadata.shelfLife is too long' });
  });
});
