// What an API key can read over GraphQL, walked over the composed supergraph: from every Query root
// field a key passes, through every field it passes (entity fields of every subgraph included:
// the supergraph merges them into one type), each key type on its own. A field a key reaches fails
// the test when
//  - its type is operator data: some field returning that type declares OPERATOR (Account.platform
//    marks Platform), so every other path to it must be guarded as well;
//  - the REST API serves it only to others: every read route selecting it is a platform route, or
//    guards the path to it against this key type (the publishable key and a webhook URL).
// The roles come from schema/field-access.json (what the subgraphs enforce, drift-checked against
// the code in schema-drift.test.ts), the routes from the bridge's route table.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { OPERATOR, SECRET_KEY } from '../../lib/tenant.js';
import { ROOT } from '../../scripts/supergraph.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';
import { KEY_TYPES, keyLeaks, keyReach, loadFieldAccess, restReads } from '../harness/key-reach.js';

/**
 * Fields a key reads over GraphQL that REST serves to operators only, and why a key may: they name
 * the key's own app (`currentApp`, a product's `app`), nothing of its owner's configuration.
 */
const KEY_IDENTITY_FIELDS = new Set(
  ['id', 'name', 'description', 'appType', 'purpose', 'status', 'preferredDomain', 'domainVerified', 'createdAt', 'updatedAt', 'deletedAt'].map((f) => `App.${f}`),
);

const schema = loadApiSchema();
const access = loadFieldAccess();
const reads = restReads(ROUTES, access, schema);

describe.each(KEY_TYPES.map((k) => [k]))('a %s key over GraphQL', (keyType) => {
  test('reads nothing that is operator data or that REST refuses it', () => {
    expect(keyLeaks(schema, access, reads, keyType, KEY_IDENTITY_FIELDS)).toEqual([]);
  });

  test('reaches a sizeable part of the graph (the walk is not vacuous)', () => {
    const reach = keyReach(schema, access, keyType);
    expect(reach.size).toBeGreaterThan(300);
    for (const f of ['Query.products', 'Product.app', 'App.name', 'Query.searchIndex']) expect(reach.has(f)).toBe(true);
  });
});

test('without the declarations that close them, the walk finds the leaks (Account.platform, webhook URLs, customer prices)', () => {
  const open = { ...access };
  for (const f of ['App.account', 'Account.platform', 'App.webhookUrl', 'ProductPricing.customerPrices']) delete open[f];
  const openReads = restReads(ROUTES, open, schema);
  const leaks = keyLeaks(schema, open, openReads, 'publishable', KEY_IDENTITY_FIELDS).join('\n');
  expect(leaks).toContain('Account.platform (currentApp.account.platform)');
  expect(leaks).toMatch(/Platform\.email \(.*\.platform\.email\)/);
  expect(leaks).toContain('App.webhookUrl (currentApp.webhookUrl)');
  // the Account type is still marked (Account.platform gone, App.account gone): REST refuses it
  expect(leaks).toMatch(/Account\.name .*REST serves it only to others/);
  // the pricing route keeps customerPrices refused to a publishable key only while the field declares it
  const pricing = openReads.find((r) => r.route.operation === 'GetProductPricing')!;
  expect(pricing.keyTypes).toContain('publishable');
});

test('every role a field declares is one a caller can hold', () => {
  const known = /^(products|search|ai):(read|write)$|^platform:(admin|manage|read|superadmin)$|^identities:write$|^key:secret$|^caller:operator$/;
  expect(Object.entries(access).flatMap(([f, roles]) => roles.filter((r) => !known.test(r)).map((r) => `${f}: ${r}`))).toEqual([]);
});

describe("docs/security.md's key tables match the declarations", () => {
  const doc = readFileSync(resolve(ROOT, 'docs', 'security.md'), 'utf8');
  /** The rows (header and rule left out) of the first table after `### heading`, as cells. */
  const table = (heading: string): string[][] => {
    const lines = doc.slice(doc.indexOf(`### ${heading}`)).split('\n');
    const first = lines.findIndex((l) => l.startsWith('| '));
    const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
    expect(first).toBeGreaterThan(0);
    return lines.slice(first + 2, end).map((l) => l.split(' | ').map((c) => c.replace(/^\| /, '')));
  };
  const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const declared = (role: string) => Object.entries(access).filter(([, roles]) => roles.includes(role)).map(([f]) => f).sort();

  test('"Reads that need a secret key": every key read route refusing a publishable key, and every secret-key field', () => {
    // the row of a requirement that depends on arguments (`… with customer_id`) is declared beside its resolvers
    const rows = table('Reads that need a secret key').filter((r) => !r[0].includes(' with '));
    const routes = rows.flatMap((r) => ticks(r[0])).sort();
    const derived = reads.filter((r) => r.read && r.route.auth === 'apiKey' && r.route.method === 'GET' && !r.keyTypes.includes('publishable')).map((r) => `${r.route.method} ${r.route.path}`).sort();
    expect(routes).toEqual(derived);
    const fields = rows.flatMap((r) => ticks(r[1])).filter((f) => /^[A-Z]\w*\.\w+$/.test(f)).sort();
    expect(fields).toEqual(declared(SECRET_KEY));
  });

  test('"Operator-only fields": every field declaring OPERATOR', () => {
    expect(table('Operator-only fields').flatMap((r) => ticks(r[0])).sort()).toEqual(declared(OPERATOR));
  });
});
