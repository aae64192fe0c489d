// The per-key group queue of reservations (subgraphs/catalog/inventory/reservation.queue.ts): the
// first request of a key runs alone, those arriving meanwhile go together next in arrival order,
// keys never share a group, groups are capped, and each request gets its own result.
import { GroupQueue } from '../../subgraphs/catalog/inventory/reservation.queue.js';

const tick = () => new Promise((r) => setImmediate(r));

function recorder(fail?: (r: string) => boolean) {
  const groups: { key: string; requests: string[] }[] = [];
  const queue = new GroupQueue<string, string>(async (key, requests) => {
    groups.push({ key, requests });
    await tick();
    return requests.map((r) => (fail?.(r) ? { status: 'rejected', reason: new Error(`no ${r}`) } : { status: 'fulfilled', value: `${key}:${r}` }));
  }, 3);
  return { groups, queue };
}

test('the first runs alone; those that arrive meanwhile go next, in order, at most maxGroup at a time', async () => {
  const { groups, queue } = recorder();
  const out = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((r) => queue.submit('k', r)));
  expect(out).toEqual(['k:a', 'k:b', 'k:c', 'k:d', 'k:e']);
  expect(groups.map((g) => g.requests)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
  expect(queue.queued).toBe(0);
});

test('keys never share a group', async () => {
  const { groups, queue } = recorder();
  const out = await Promise.all(['x1', 'y1', 'x2', 'y2', 'x3', 'y3'].map((r) => queue.submit(r[0], r)));
  expect(out).toEqual(['x:x1', 'y:y1', 'x:x2', 'y:y2', 'x:x3', 'y:y3']);
  for (const g of groups) expect(g.requests.every((r) => r[0] === g.key)).toBe(true);
  expect(groups.map((g) => g.requests)).toEqual([['x1'], ['y1'], ['x2', 'x3'], ['y2', 'y3']]);
});

test('a refused request fails alone; a run that throws fails only its own group', async () => {
  const { queue } = recorder((r) => r === 'bad');
  const settled = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((r) => queue.submit('k', r)));
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);

  let calls = 0;
  const q = new GroupQueue<string, string>(async (_k, requests) => {
    if (++calls === 2) throw new Error('down');
    await tick();
    return requests.map((r) => ({ status: 'fulfilled', value: r }));
  });
  const first = q.submit('k', 'first');
  const group = [q.submit('k', 'g1'), q.submit('k', 'g2')];
  await expect(first).resolves.toBe('first');
  await expect(Promise.allSettled(group)).resolves.toEqual([expect.objectContaining({ status: 'rejected' }), expect.objectContaining({ status: 'rejected' })]);
  await expect(q.submit('k', 'later')).resolves.toBe('later');
});
