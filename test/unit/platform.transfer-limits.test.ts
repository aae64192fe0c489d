// subgraphs/platform/data-transfers/public-limits.ts: per-address and per-code budgets of the public
// data-transfer paths, and an address refused before any lookup once its failed guesses pass the limit.
import { MemoryRateLimiter } from '../../lib/rate-limit.js';
import { DomainError } from '../../lib/errors.js';
import { PublicTransferLimits } from '../../subgraphs/platform/data-transfers/public-limits.js';

const CODE = 'dt_AAAAAAAAAAAAAAAAAAAAAAAA';
let now = 1_000_000_000_020; // 20 ms into a minute window
const limits = () => new PublicTransferLimits(new MemoryRateLimiter(() => now), { perAddress: 3, perCode: 2, failedGuesses: 2 }, () => now);
const refused = async (p: Promise<void>) => {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(DomainError);
  expect((e as DomainError).code).toBe('RATE_LIMITED');
  return e as DomainError;
};

test('per code, whatever the address', async () => {
  const l = limits();
  await l.admit('10.0.0.1', CODE);
  await l.admit('10.0.0.2', CODE);
  await refused(l.admit('10.0.0.3', CODE));
  await l.admit('10.0.0.3', 'dt_BBBBBBBBBBBBBBBBBBBBBBBB');
});

test('per address, whatever the code', async () => {
  const l = limits();
  for (const c of ['dt_1AAAAAAAAAAAAAAAAAAAAAAA', 'dt_2AAAAAAAAAAAAAAAAAAAAAAA', 'dt_3AAAAAAAAAAAAAAAAAAAAAAA']) await l.admit('10.0.0.9', c);
  await refused(l.admit('10.0.0.9', 'dt_4AAAAAAAAAAAAAAAAAAAAAAA'));
});

test('failed guesses past the limit refuse the address until the window ends, and it says when to retry', async () => {
  const l = limits();
  await l.failedGuess('10.0.0.5');
  await l.failedGuess('10.0.0.5');
  await l.admit('10.0.0.5', CODE); // at the limit, not past it
  await refused(l.failedGuess('10.0.0.5')); // the guess past the limit is itself refused
  const e = await refused(l.admit('10.0.0.5', 'dt_CCCCCCCCCCCCCCCCCCCCCCCC'));
  expect(e.opts.meta).toMatchObject({ retryAfterMs: expect.any(Number) });
  await l.admit('10.0.0.6', 'dt_CCCCCCCCCCCCCCCCCCCCCCCC');
  now += 60_000;
  await l.admit('10.0.0.5', 'dt_DDDDDDDDDDDDDDDDDDDDDDDD');
});
