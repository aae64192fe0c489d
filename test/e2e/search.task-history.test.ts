// The task history's bound: a search process whose worker keeps each app partition's latest
// SEARCH_TASK_HISTORY task numbers (here 5) deletes the finished tasks older than that, oldest first,
// and leaves a partition under the bound alone. On a database of its own, so the stack's tasks stay.
import { keyContext, searchProcesses, sleep, subgraphGql } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sghist');

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { id } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const TASKS = `query { searchTasks(limit: 100) { results { id status } } }`;
const COUNT = `query($uid: String!) { index(uid: $uid) { numberOfDocuments } }`;

beforeAll(() => processes.setUp(), 30_000);
afterAll(() => processes.tearDown(), 60_000);

test('finished tasks past the latest SEARCH_TASK_HISTORY of a partition are pruned; a smaller partition keeps all; documents stay', async () => {
  const { url } = await processes.start('search-history', BASE + 70, { SEARCH_TASK_HISTORY: '5', SEARCH_TASK_PRUNE_MS: '200' });
  const busy = keyContext({ plan: 'enterprise' });
  const quiet = keyContext({ plan: 'enterprise' });
  expect((await subgraphGql(url, busy, CREATE, { uid: 'h' })).errors).toBeUndefined();
  expect((await subgraphGql(url, quiet, CREATE, { uid: 'h' })).errors).toBeUndefined();
  // task 1 created the index; tasks 2 to 10 add one document each
  for (let i = 0; i < 9; i++) expect((await subgraphGql(url, busy, ADD, { uid: 'h', docs: [{ id: i }] })).errors).toBeUndefined();
  for (let i = 0; i < 2; i++) expect((await subgraphGql(url, quiet, ADD, { uid: 'h', docs: [{ id: i }] })).errors).toBeUndefined();
  const ids = async (ctx: typeof busy) => ((await subgraphGql(url, ctx, TASKS)).data.searchTasks.results as { id: string; status: string }[]);
  const deadline = Date.now() + 20_000;
  while ((await ids(busy)).length !== 5 || (await ids(busy)).some((t) => t.status !== 'succeeded')) {
    if (Date.now() > deadline) throw new Error(`history not pruned: ${JSON.stringify(await ids(busy))}`);
    await sleep(100);
  }
  expect((await ids(busy)).map((t) => t.id)).toEqual(['10', '9', '8', '7', '6']);
  await sleep(500); // a few more pruning rounds
  expect((await ids(quiet)).map((t) => t.id)).toEqual(['3', '2', '1']);
  // the documents the pruned tasks added are still there
  expect((await subgraphGql(url, busy, COUNT, { uid: 'h' })).data.index.numberOfDocuments).toBe(9);
}, 60_000);
