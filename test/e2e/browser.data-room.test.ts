// The investor data room (GET /data-room on the REST bridge) in headless Chromium: it loads with no
// console error and requests nothing but the bridge, signs in with a real platform JWT, and every
// number it shows (as text, and in two charts) equals what the same /reporting/* requests answer
// over HTTP. A screenshot goes to .data/test-output/data-room.png. 401 and 403 are shown as such.
import type { Browser, Page } from 'playwright-core';
import { createTenant, jsonApi, mintToken, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { describeBrowser, foreignRequests, launchBrowser, outputPath, recordingContext } from '../harness/browser.js';

interface Shown {
  report: string;
  field: string;
  kind: string;
  value: string;
  text: string;
}

const at = (obj: any, path: string): unknown => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

/** The number a person reads in `text` (`$1,247.00`, `12.50%`, `1,024`, `35.5`), in the API's unit. */
function readBack(text: string, kind: string): number | null {
  if (text === '—') return null;
  const n = Number(text.replace(/[$,%]/g, ''));
  if (kind === 'money') return Math.round(n * 100);
  if (kind === 'rate') return Math.round(n * 100) / 10_000;
  return n;
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${stack().rest}/data-room`);
  await page.waitForSelector('body[data-state="signed-out"]');
  await page.fill('#token', token);
  await page.click('#sign-in button[type="submit"]');
}

describeBrowser('investor data room in Chromium', () => {
  let browser: Browser;
  let t: Tenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    // an operator of its own, so the reports cover this one platform: a growth subscriber (the
    // tenant's account), a starter subscriber and a trial
    t = await createTenant({ operator: uniq('investor'), plan: 'growth' });
    for (const [plan, trial] of [['starter', false], ['starter', true]] as const) {
      const a = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: `Shop ${uniq()}`, code: uniq('shop') }), headers: t.platformHeaders });
      expect(a.status).toBe(201);
      const s = await rest('POST', `/accounts/${a.body.data.attributes.url_id}/subscriptions`, { body: jsonApi('subscriptions', { model_code: plan, trial }), headers: t.platformHeaders });
      expect(s.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  test('signed in with a platform JWT, every number shown equals the API answer; nothing leaves the bridge', async () => {
    const { context, page, seen } = await recordingContext(browser);
    try {
      await signIn(page, t.adminToken);
      await page.waitForSelector('body[data-state="ready"]');

      // the page's own report requests, each with the JWT as a Bearer token
      const calls = seen.urls.filter((u) => new URL(u).pathname.startsWith('/reporting/'));
      expect(calls.map((u) => new URL(u).pathname).sort()).toEqual(['customers', 'dashboard', 'engagement', 'growth', 'platforms', 'revenue'].map((r) => `/reporting/${r}`));
      const api: Record<string, any> = {};
      for (const url of calls) {
        const r = await fetch(url, { headers: { authorization: `Bearer ${t.adminToken}` } });
        expect(r.status).toBe(200);
        api[new URL(url).pathname.slice('/reporting/'.length)] = ((await r.json()) as any).data.attributes;
      }
      expect(api.dashboard.mrr_cents).toBe(19900 + 4900);
      expect(api.platforms.platforms.map((p: any) => p.code)).toEqual([t.platformCode]);

      const shown: Shown[] = await page.$$eval('[data-field]', (els) =>
        els.map((e) => {
          const d = (e as HTMLElement).dataset;
          return { report: d.report!, field: d.field!, kind: d.kind!, value: d.value!, text: e.textContent!.trim() };
        }),
      );
      expect(new Set(shown.map((s) => s.report))).toEqual(new Set(Object.keys(api)));
      expect(shown.length).toBeGreaterThan(100);
      const mismatches = shown.filter((s) => {
        const expected = at(api[s.report], s.field);
        if (s.kind === 'text') return s.text !== String(expected);
        if (s.value !== (expected === null ? '' : String(expected))) return true;
        const read = readBack(s.text, s.kind);
        if (expected === null || read === null) return read !== expected;
        return Math.abs(read - (expected as number)) > (s.kind === 'score' ? 0.05 : 1e-9);
      });
      expect(mismatches).toEqual([]);
      expect(shown.find((s) => s.report === 'dashboard' && s.field === 'mrr_cents')?.text).toBe('$248.00');
      expect(await page.isHidden('#empty')).toBe(true);

      // the charts plot the same numbers (dollars)
      const charted = await page.evaluate(() => {
        const data = (id: string) => (window as any).Chart.getChart(id).data.datasets[0].data as number[];
        return { tiers: data('chart-revenue-tiers'), platforms: data('chart-platforms') };
      });
      expect(charted.tiers).toEqual(api.revenue.by_tier.map((x: any) => x.mrr_cents / 100));
      expect(charted.platforms).toEqual(api.platforms.platforms.map((x: any) => x.mrr_cents / 100));

      await page.screenshot({ path: outputPath('data-room.png'), fullPage: true });

      // another period: the page asks again, and the token stays in this tab's sessionStorage
      await page.selectOption('#period', '7d');
      await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.getElementById('status')!.textContent!.startsWith('Period 7d'));
      expect(seen.urls.some((u) => u.includes('/reporting/growth?period=7d'))).toBe(true);
      // one platform: the five reports are limited to it (the breakdown still lists every platform)
      await page.selectOption('#platform', t.platformCode);
      await page.waitForFunction((code) => document.body.dataset.state === 'ready' && document.getElementById('status')!.textContent!.includes(`platform ${code}`), t.platformCode);
      expect(seen.urls.filter((u) => u.includes(`platform=${t.platformCode}`)).map((u) => new URL(u).pathname).sort()).toEqual(
        ['customers', 'dashboard', 'engagement', 'growth', 'revenue'].map((r) => `/reporting/${r}`),
      );
      await page.click('#refresh');
      await page.waitForFunction(() => document.body.dataset.state === 'ready' && !document.getElementById('status')!.textContent!.includes('(cached)'));
      expect(seen.urls.filter((u) => u.includes('force_refresh=true'))).toHaveLength(6);
      expect(await page.textContent('[data-report="dashboard"][data-field="mrr_cents"]')).toBe('$248.00');
      expect(await page.evaluate(() => sessionStorage.getItem('data-room.jwt'))).toBe(t.adminToken);
      await page.reload();
      await page.waitForSelector('body[data-state="ready"]');
      await page.click('#sign-out');
      expect(await page.evaluate(() => sessionStorage.getItem('data-room.jwt'))).toBeNull();

      expect(seen.errors).toEqual([]);
      expect(foreignRequests(seen, [stack().rest])).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time

  test('a platform:admin token of a user who administers no platform: zeros, explained, pointing to the seed', async () => {
    const { context, page, seen } = await recordingContext(browser);
    try {
      await signIn(page, mintToken({ sub: uniq('nobody'), scopes: ['platform:admin'] }));
      await page.waitForSelector('body[data-state="ready"]');
      await page.waitForSelector('#empty:not([hidden])');
      const text = (await page.textContent('#empty'))!.replace(/\s+/g, ' ');
      expect(text).toMatch(/Nothing to report for this token yet/);
      expect(text).toMatch(/administers no platform/);
      expect(text).toMatch(/npm run seed.*admin JWT/);
      expect(seen.errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test('a token without platform:admin is refused with 403, an expired one with 401, a non-JWT before any request', async () => {
    const { context, page } = await recordingContext(browser);
    try {
      await signIn(page, mintToken({ scopes: ['platform:read'] }));
      await page.waitForSelector('#error:not([hidden])');
      expect(await page.textContent('#error')).toMatch(/403 insufficient_scope.*platform:admin/);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe('signed-out');

      await signIn(page, mintToken({ expiresInSec: -60 }));
      await page.waitForFunction(() => /401/.test(document.getElementById('error')!.textContent!));
      expect(await page.textContent('#error')).toMatch(/^Not signed in — 401 invalid_token: .*expired/);

      await signIn(page, 'sk_live_not_a_jwt');
      expect(await page.textContent('#error')).toMatch(/not a JWT/);
    } finally {
      await context.close();
    }
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time
});
