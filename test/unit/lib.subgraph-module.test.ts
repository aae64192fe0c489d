// lib/subgraph-module.ts and lib/loaders.ts: modules merge into one definition (a name declared twice
// stops the start), every module's loaders land in one ctx.loaders per request and see that request's
// context; a primed key answers at once, anything else loads in a batch.
import { composeModules, loadersFor, type SubgraphModule } from '../../lib/subgraph-module.js';
import { ChildRowsLoader, loaderFamily, mapNow, PrimedLoader } from '../../lib/loaders.js';
import type { SubgraphContext, WorkerDeps } from '../../lib/subgraph.js';

interface L {
  a: PrimedLoader<string, string>;
  b: PrimedLoader<string, string>;
}
type C = SubgraphContext<L>;

class ResolverA {}
class ResolverB {}

const modA: SubgraphModule<C> = {
  name: 'a',
  resolvers: [ResolverA],
  referenceResolvers: { A: { __resolveReference: () => 'a' } },
  loaders: () => ({ a: new PrimedLoader<string, string>(async (ids) => ids.map((id) => `a:${id}`)) }),
};
// b's loader reads through a's: the context it is given is the request's, with the merged loaders
const modB: SubgraphModule<C> = {
  name: 'b',
  resolvers: [ResolverB],
  loaders: (ctx) => ({ b: new PrimedLoader<string, string>(async (ids) => Promise.all(ids.map(async (id) => `b:${await ctx.loaders.a.load(id)}`))) }),
};

test('modules merge: resolvers in order, reference resolvers, one loaders object a loader can read', async () => {
  const m = composeModules<L, C>([modA, modB]);
  expect(m.resolvers).toEqual([ResolverA, ResolverB]);
  expect(Object.keys(m.referenceResolvers)).toEqual(['A']);
  const loaders = m.createLoaders({ requestId: 'r' });
  expect(await loaders.b.load('x')).toBe('b:a:x');
  expect(m.createLoaders({ requestId: 's' }).a).not.toBe(loaders.a);
});

test('a module listed twice, a reference type or a loader name declared twice: an error naming it', () => {
  expect(() => composeModules([modA, modA])).toThrow(/module a is listed twice/);
  expect(() => composeModules([modA, { name: 'c', referenceResolvers: { A: { __resolveReference: () => 'c' } } }])).toThrow(/resolve references to A/);
  const clash = composeModules<L, C>([modA, { name: 'd', loaders: modA.loaders }]);
  expect(() => clash.createLoaders({})).toThrow(/loader a of module d/);
});

test('PrimedLoader.loadNow: a primed key at once, another by a batched load; an error is not kept for loadNow', async () => {
  const batches: string[][] = [];
  const l = new PrimedLoader<string, string>(async (ids) => (batches.push([...ids]), ids.map((id) => id.toUpperCase())));
  l.prime('p', 'primed');
  l.prime('e', new Error('no'));
  expect(l.loadNow('p')).toBe('primed');
  const [x, y] = [l.loadNow('x'), l.loadNow('y')];
  expect(x).toBeInstanceOf(Promise);
  expect(await Promise.all([x, y])).toEqual(['X', 'Y']);
  expect(batches).toEqual([['x', 'y']]);
  await expect(l.loadNow('e')).rejects.toThrow('no');
  l.clear('p');
  expect(await l.loadNow('p')).toBe('P');
  expect(mapNow('v', (s) => s.length)).toBe(1);
  expect(await mapNow(Promise.resolve('vv'), (s) => s.length)).toBe(2);
});

test('ChildRowsLoader primes from JSON rows with its mapper; loaderFamily keeps one loader per argument set', () => {
  const l = new ChildRowsLoader<{ n: number }>(async (ids) => ids.map(() => []), { column: () => '(select 1)', fromRow: (r) => ({ n: Number(r.n) }) });
  expect(l.column()).toBe('(select 1)');
  l.primeRows('p1', [{ n: '2' }, { n: 3 }]);
  expect(l.loadNow('p1')).toEqual([{ n: 2 }, { n: 3 }]);
  const family = loaderFamily(String, (limit: number) => ({ limit }));
  expect(family(5)).toBe(family(5));
  expect(family(6)).not.toBe(family(5));
});

test('loadersFor: a derived context gets loaders made by the same modules, seeing its own fields', async () => {
  const m = composeModules<L, C>([modA, modB]);
  const loaders = m.createLoaders({ requestId: 'r' });
  const derived = loadersFor(loaders, { requestId: 'derived' });
  expect(derived).not.toBe(loaders);
  expect(Object.keys(derived)).toEqual(['a', 'b']);
  expect(await derived.b.load('x')).toBe('b:a:x');
  expect(() => loadersFor({}, {})).toThrow(/not made by composeModules/);
});

test('workers: module workers start in order; a job kind declared twice, or job kinds without queues, stop the start and stop what started', async () => {
  const started: string[] = [];
  const stopped: string[] = [];
  const worker = (name: string) => async () => (started.push(name), [{ stop: async () => void stopped.push(name) }]);
  const kind = { kind: 'x.run', handle: async () => undefined };
  const deps = { runtime: undefined } as unknown as WorkerDeps & { runtime: unknown };
  const ok = composeModules<L, C>([{ name: 'w1', workers: worker('w1') }, { name: 'w2', workers: worker('w2') }]);
  const ws = await ok.workers(deps);
  expect(started).toEqual(['w1', 'w2']);
  expect(ws).toHaveLength(2);
  const twice = composeModules<L, C>([{ name: 'w3', workers: worker('w3'), jobs: () => [kind] }, { name: 'j2', jobs: () => [kind] }], { schema: 's' });
  await expect(twice.workers(deps)).rejects.toThrow(/job kind x.run of module j2 is declared twice/);
  expect(stopped).toEqual(['w3']);
  await expect(composeModules<L, C>([{ name: 'j', jobs: () => [kind] }]).workers(deps)).rejects.toThrow(/no job queues/);
});
