// The container image's one entry point (scripts/role.ts): the process named by the first argument or
// ROLE; anything else stops with one line naming ROLE and the roles there are.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, spawnScript } from '../harness/spawn.js';
import { stackDatabaseUrl } from '../harness/db.js';

const logOf = (name: string) => readFileSync(resolve(ROOT, '.data', 'test-logs', `${name}.log`), 'utf8');
const exit = (c: ReturnType<typeof spawnScript>) => new Promise<number | null>((r) => c.once('exit', (code) => r(code)));

test('an unknown ROLE stops with one line naming the variable and the roles', async () => {
  expect(await exit(spawnScript('scripts/role.ts', { ROLE: 'bogus' }, 'role-bogus'))).toBe(1);
  expect(logOf('role-bogus').trim()).toBe('error: ROLE: "bogus" is not one of gateway, rest, platform, ai, catalog, search, migrate, all');
}, 60_000);

test('ROLE=migrate runs npm run migrate (the stack database is up to date)', async () => {
  expect(await exit(spawnScript('scripts/role.ts', { ROLE: 'migrate', DATABASE_URL: stackDatabaseUrl() }, 'role-migrate'))).toBe(0);
  expect(logOf('role-migrate')).toMatch(/^catalog: up to date$/m);
}, 180_000);
