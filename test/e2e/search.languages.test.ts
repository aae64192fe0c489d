// An index's `languages` setting end to end: set through REST (and shown in both styles), documents
// re-indexed by the settings task, stemmed and segmented search with highlights on the original
// words; unknown languages refused naming the setting.
import { createTenant, gql, jsonApi, rest, uniq } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search, waitTask } from './search.helpers.js';

describe('index languages', () => {
  test('German stemming and Chinese segmentation through the REST bridge; GraphQL shows the setting', async () => {
    const t = await createTenant();
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, [
      { id: 1, title: 'Die Pakete wurden heruntergeladen' },
      { id: 2, title: 'Eine Datei fehlt' },
      { id: 3, title: '无法下载软件包' },
    ]);
    // today's rule: the finished word "Dateien" misses "Datei", the Chinese word misses the sentence
    expect((await search(t, uid, { query: 'Dateien ' })).body.data.attributes.hits.length).toBe(0);
    expect((await search(t, uid, { query: '软件包' })).body.data.attributes.hits.length).toBe(0);
    const patch = await rest('PATCH', `/search/v1/indexes/${uid}/settings`, { body: jsonApi('index_settings', { languages: ['de', 'zh'] }), headers: t.keyHeaders });
    expect(patch.status).toBe(202);
    expect((await waitTask(t, patch.body.data.id)).attributes.status).toBe('succeeded');
    const de = await search(t, uid, { query: 'Dateien ', attributes_to_highlight: ['title'] });
    expect(de.body.data.attributes.hits.map((h: any) => h.id)).toEqual([2]);
    expect(de.body.data.attributes.hits[0]._formatted.title).toBe('Eine <em>Datei</em> fehlt');
    const zh = await search(t, uid, { query: '软件包' });
    expect(zh.body.data.attributes.hits.map((h: any) => h.id)).toEqual([3]);
    const g = await gql('query($u: String!) { index(uid: $u) { settings { languages } } }', { u: uid }, t.keyHeaders);
    expect(g.body.data.index.settings.languages).toEqual(['de', 'zh']);
  });

  test('unknown or conflicting languages → 422 naming languages (as the other settings of PATCH …/settings)', async () => {
    const t = await createTenant();
    const uid = await createIndex(t, { uid: uniq('lang_') });
    const bad = (languages: unknown) => rest('PATCH', `/search/v1/indexes/${uid}/settings`, { body: jsonApi('index_settings', { languages }), headers: t.keyHeaders });
    expectServiceError(await bad(['klingon']), 'search', 422, 'VALIDATION_FAILED', { parameter: 'languages' });
    expectServiceError(await bad(['en', 'de']), 'search', 422, 'VALIDATION_FAILED', { parameter: 'languages' });
    expectServiceError(await bad('de'), 'search', 422, 'VALIDATION_FAILED', { parameter: 'languages' });
  });
});
