// Integer ids counted per app partition: search task uids and rendered-prompt ids go 1, 2, 3… with
// the tenant's own activity only; another tenant's work in between does not make them jump, and a
// uid names the caller's own task (another tenant's task with the same number is not reachable).
import { jsonApi, rest } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { createIndex, settle } from './search.helpers.js';

test("search task uids: each tenant counts 1, 2, 3… whatever the other does in between", async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  const uidsOf = async (t: typeof a.t) => (await rest('GET', '/search/v1/tasks?limit=50', { headers: t.keyHeaders })).body.data.map((x: any) => Number(x.id));
  const ia = await createIndex(a.t, { primary_key: 'id' });
  await createIndex(b.t, { primary_key: 'id' });
  for (let i = 0; i < 3; i++) await settle(a.t, await rest('POST', `/search/v1/indexes/${ia}/documents`, { body: jsonApi('documents', { documents: [{ id: `d${i}`, title: 'x' }] }), headers: a.t.keyHeaders }));
  const ib = await createIndex(b.t, { primary_key: 'id' });
  const add = await rest('POST', `/search/v1/indexes/${ib}/documents`, { body: jsonApi('documents', { documents: [{ id: 'z' }] }), headers: b.t.keyHeaders });
  expect(add.status).toBe(202);
  expect(add.body.data.id).toBe('3');
  await settle(b.t, add);
  expect(await uidsOf(a.t)).toEqual([4, 3, 2, 1]);
  expect(await uidsOf(b.t)).toEqual([3, 2, 1]);
  // uid 4 exists only in a's partition
  expect((await rest('GET', '/search/v1/tasks/4', { headers: a.t.keyHeaders })).status).toBe(200);
  expect((await rest('GET', '/search/v1/tasks/4', { headers: b.t.keyHeaders })).status).toBe(404);
  const bTask = await rest('GET', '/search/v1/tasks/3', { headers: b.t.keyHeaders });
  expect(bTask.body.data.attributes).toMatchObject({ index_uid: ib, task_type: 'document_addition_or_update' });
  // pagination by uid: `from` is a uid of the caller's partition
  const page = await rest('GET', '/search/v1/tasks?limit=2&from=3', { headers: a.t.keyHeaders });
  expect(page.body.data.map((x: any) => Number(x.id))).toEqual([3, 2]);
}, 60_000);

test('rendered-prompt ids: integers counted per app partition', async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  const render = async (u: typeof a) => {
    const lib = (await rest('GET', '/prompts', { headers: u.headers })).body.data.find((p: any) => p.attributes.name === 'Fact Check');
    const r = await rest('POST', `/ai/v1/prompts/${lib.id}/render`, { body: jsonApi('rendered_prompts', { placeholders: { claim: 'c', evidence: ['e'] } }), headers: u.headers });
    expect(r.status).toBe(201);
    return r.body.data.id as number;
  };
  expect(await render(a)).toBe(1);
  expect(await render(b)).toBe(1);
  expect(await render(a)).toBe(2);
  expect(await render(a)).toBe(3);
  expect(await render(b)).toBe(2);
}, 60_000);
