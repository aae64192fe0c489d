// appWebhookUrl (subgraphs/platform/apps/app.service.ts): with private fetches refused (production),
// loopback, private, link-local (cloud metadata) and unspecified addresses are refused at save with
// VALIDATION_FAILED naming webhook_url, as every other webhook route refuses them; public ones pass.
import { appWebhookUrl } from '../../subgraphs/platform/apps/app.service.js';

const ctx = (allowPrivateNetworkFetch: boolean) => ({ runtime: { cfg: { allowPrivateNetworkFetch } } }) as unknown as Parameters<typeof appWebhookUrl>[0];

const REFUSED = [
  'http://127.0.0.1/hook',
  'http://127.1/hook',
  'http://2130706433/hook',
  'http://0x7f000001/hook',
  'http://localhost:8080/hook',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://0.0.0.0/hook',
  'http://10.0.0.5/hook',
  'http://172.16.3.4/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00::1]/hook',
  'http://[fe80::1]/hook',
  'http://100.64.0.1/hook',
];

describe('appWebhookUrl', () => {
  test.each(REFUSED)('%s → VALIDATION_FAILED (webhook_url)', async (url) => {
    await expect(appWebhookUrl(ctx(false), url)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', opts: { parameter: 'webhookUrl' } });
  });

  test('a public address passes; empty and null clear it; private ones pass only where private fetches are allowed', async () => {
    await expect(appWebhookUrl(ctx(false), 'https://93.184.216.34/hook')).resolves.toBe('https://93.184.216.34/hook');
    await expect(appWebhookUrl(ctx(false), null)).resolves.toBeUndefined();
    await expect(appWebhookUrl(ctx(true), 'http://127.0.0.1:9000/hook')).resolves.toBe('http://127.0.0.1:9000/hook');
    await expect(appWebhookUrl(ctx(true), 'http://u:p@127.0.0.1/hook')).rejects.toMatchObject({ opts: { parameter: 'webhookUrl' } });
  });
});
