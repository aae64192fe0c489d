// Hybrid and vector search end to end: `embedding_attributes` set through REST (and shown in both
// styles), vectors computed by the indexing task, `hybrid` and `vector` through the REST bridge and
// the gateway, filters on the vector results, `_semanticScore` on hits, errors naming the parameter.
import { sifEmbedding } from '../../lib/word-vectors.js';
import { createTenant, gql, jsonApi, rest } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search, settle } from './search.helpers.js';
import { PACKAGES } from '../harness/search-packages.fixtures.js';


const SEARCH_GQL = `query($u: String!, $i: SearchInput) { searchIndex(indexUid: $u, input: $i) { hits estimatedTotalHits facetDistribution } }`;

describe('hybrid search', () => {
  test('REST: embedding_attributes, hybrid with a filter, _semanticScore; GraphQL: pure vector search', async () => {
    const t = await createTenant();
    const uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['section'] } });
    await addDocuments(t, uid, PACKAGES);
    // without embeddings the index refuses hybrid search, naming the parameter
    expectServiceError(await search(t, uid, { query: 'web', hybrid: { semantic_ratio: 0.5 } }), 'search', 400, 'invalid_search_hybrid_query', { parameter: 'hybrid' });

    const task = await settle(t, await rest('PATCH', `/search/v1/indexes/${uid}/settings`, { body: jsonApi('index_settings', { embedding_attributes: ['name', 'summary'] }), headers: t.keyHeaders }));
    expect(task.attributes.status).toBe('succeeded');
    const got = await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.settings.embedding_attributes).toEqual(['name', 'summary']);

    // keyword search finds one document; hybrid adds the ones that are close in the vector space
    const keyword = await search(t, uid, { query: 'webserver', attributes_to_highlight: [] });
    expect(keyword.body.data.attributes.hits.map((h: any) => h.id)).toEqual([6]);
    const hybrid = await search(t, uid, { query: 'webserver', hybrid: { semantic_ratio: 0.5 }, attributes_to_highlight: [], facets: ['section'] });
    expect(hybrid.status).toBe(200);
    const hits = hybrid.body.data.attributes.hits;
    expect(hits[0].id).toBe(6);
    expect(hits.length).toBeGreaterThan(1);
    for (const h of hits) expect(typeof h._semanticScore).toBe('number');
    expect(hybrid.body.data.attributes.estimated_total_hits).toBe(hits.length);
    // documents added later are embedded by their indexing task
    await addDocuments(t, uid, [{ id: 7, name: 'caddy', section: 'httpd', summary: 'fast web server with automatic HTTPS' }]);
    const filtered = await search(t, uid, { query: 'compression', hybrid: { semantic_ratio: 0.8 }, filter: 'section = httpd', attributes_to_highlight: [] });
    const ids = filtered.body.data.attributes.hits.map((h: any) => h.id);
    expect(ids).toContain(7);
    expect(filtered.body.data.attributes.hits.every((h: any) => h.section === 'httpd')).toBe(true);

    // GraphQL through the gateway: a vector of the same model (the AI service's default, glove-sif-100d) of
    // the text the index embedded for document 4 (its embedding attributes joined by newlines)
    const vector = sifEmbedding('apache2\nApache HTTP Server').vector;
    const g = await gql(SEARCH_GQL, { u: uid, i: { vector, limit: 2, attributesToHighlight: [] } }, t.keyHeaders);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.searchIndex.hits[0].id).toBe(4);
    expect(g.body.data.searchIndex.hits[0]._semanticScore).toBeCloseTo(1, 4);
    expect(g.body.data.searchIndex.estimatedTotalHits).toBe(7);
    const s = await gql('query($u: String!) { index(uid: $u) { settings { embeddingAttributes } } }', { u: uid }, t.keyHeaders);
    expect(s.body.data.index.settings.embeddingAttributes).toEqual(['name', 'summary']);
  });

  test('errors name the parameter (REST and GraphQL)', async () => {
    const t = await createTenant();
    const uid = await createIndex(t, { primary_key: 'id', settings: { embedding_attributes: ['summary'] } });
    await addDocuments(t, uid, PACKAGES);
    expectServiceError(await search(t, uid, { query: 'x', hybrid: { semantic_ratio: 1.5 } }), 'search', 400, 'invalid_search_semantic_ratio', { parameter: 'hybrid.semantic_ratio' });
    expectServiceError(await search(t, uid, { vector: [0.1, 0.2] }), 'search', 400, 'invalid_search_vector', { parameter: 'vector' });
    expectServiceError(await search(t, uid, { query: 'x', hybrid: {}, sort: ['id:asc'] }), 'search', 400, 'invalid_search_hybrid_query', { parameter: 'sort' });
    const bad = await rest('PATCH', `/search/v1/indexes/${uid}/settings`, { body: jsonApi('index_settings', { embedding_attributes: 'summary' }), headers: t.keyHeaders });
    expect(bad.status).toBe(422);
    const g = await gql(SEARCH_GQL, { u: uid, i: { vector: [1, 2, 3] } }, t.keyHeaders);
    expect(g.body.errors?.[0]?.extensions?.code).toBe('invalid_search_vector');
  });
});
