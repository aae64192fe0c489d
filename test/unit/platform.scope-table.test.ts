// docs/platform.md's scope table and the route table's `scope` column say the same thing, and every
// route of the platform route files (platforms, accounts, apps, keys, domains) appears in the table.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PLATFORM_ROUTES } from '../../rest-bridge/routes/platform.routes.js';
import { PLATFORM_ACCOUNT_ROUTES } from '../../rest-bridge/routes/platform-accounts.routes.js';
import { PLATFORM_APP_ROUTES } from '../../rest-bridge/routes/platform-apps.routes.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';

const doc = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'platform.md'), 'utf8');
const rows = [...doc.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/\S*) \| (platform:\w+) \|$/gm)].map((m) => ({ method: m[1], path: m[2], scope: m[3] }));

test('every platform, account, app, domain and key route is in the documented scope table, with its scope', () => {
  const documented = new Map(rows.map((r) => [`${r.method} ${r.path}`, r.scope]));
  for (const r of [...PLATFORM_ROUTES, ...PLATFORM_ACCOUNT_ROUTES, ...PLATFORM_APP_ROUTES]) {
    expect({ route: `${r.method} ${r.path}`, scope: documented.get(`${r.method} ${r.path}`) }).toEqual({ route: `${r.method} ${r.path}`, scope: r.scope });
  }
});

test('every documented row is a real route with that scope', () => {
  expect(rows.length).toBeGreaterThan(20);
  for (const row of rows) {
    const route = ROUTES.find((r) => r.method === row.method && r.path === row.path);
    expect({ row, scope: route?.scope }).toEqual({ row, scope: row.scope });
  }
});
