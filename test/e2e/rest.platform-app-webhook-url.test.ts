// An app's webhook_url is checked when it is saved with the guard of every other webhook route:
// http(s), no credentials, at most 2048 characters, a public destination (the stack under test
// allows private fetches for its local receivers, so the address check is shown in
// test/unit/platform.app-webhook-url.test.ts). A refusal is 422 naming webhook_url; nothing is stored.
import { createTenant, jsonApi, rest, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const appPath = () => `/accounts/${t.accountUrlId}/apps/${t.appId}`;

describe('app webhook_url checked at save', () => {
  test.each([
    ['credentials in the URL', 'https://user:secret@hooks.example.com/x'],
    ['another scheme', 'ftp://hooks.example.com/x'],
    ['over 2048 characters', `https://hooks.example.com/${'a'.repeat(2100)}`],
  ])('%s → 422 webhook_url on create and on update; the saved URL is unchanged', async (_what, url) => {
    const create = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders, body: jsonApi('apps', { name: 'Hooked', webhook_url: url }) });
    expectServiceError(create, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'webhook_url' });
    const good = 'https://hooks.example.com/ok';
    expect((await rest('PUT', appPath(), { headers: t.platformHeaders, body: jsonApi('apps', { webhook_url: good }) })).status).toBe(200);
    const update = await rest('PUT', appPath(), { headers: t.platformHeaders, body: jsonApi('apps', { webhook_url: url }) });
    expectServiceError(update, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'webhook_url' });
    const apps = await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders });
    expect(apps.body.data.find((a: any) => a.id === t.appId).attributes.webhook_url).toBe(good);
  });
});
