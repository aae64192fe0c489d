import { allInOrder } from '../../lib/in-order.js';

const later = <T>(ms: number, v: T, fail = false) => new Promise<T>((ok, no) => setTimeout(() => (fail ? no(new Error(String(v))) : ok(v)), ms));

test('values in order; the first rejection in the list wins, not the first to settle', async () => {
  expect(await allInOrder<[number, string]>([later(5, 1), later(1, 'b')])).toEqual([1, 'b']);
  await expect(allInOrder([later(20, 'first', true), later(1, 'second', true)])).rejects.toThrow('first');
  await expect(allInOrder([later(20, 1), later(1, 'second', true)])).rejects.toThrow('second');
});
