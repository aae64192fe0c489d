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

  test('loads offline, runs a query and a graphql-ws subscription from the editor', async () => {
    const { context, page, seen } = await recordingContext(browser);
    // every wait is bounded, and a failure says which step it was in and what the socket carried
    page.setDefaultTimeout(20_000);
    const frames: string[] = [];
    let step = 'load';
    try {
      const subscribed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no graphql-ws subscribe frame within 30 s')), 30_000);
        page.on('websocket', (ws) => {
          ws.on('framereceived', (f) => frames.push(`<- ${String(f.payload).slice(0, 200)}`));
          ws.on('close', () => frames.push('closed'));
          ws.on('framesent', (f) => {
            frames.push(`-> ${String(f.payload).slice(0, 200)}`);
            if (String(f.payload).includes('"type":"subscribe"')) {
              clearTimeout(timer);
              resolve();
            }
          });
        });
      });
      subscribed.catch(() => undefined); // observed below; a failure before that step must not be unhandled
      await page.goto(stack().gateway);
      await page.waitForFunction(() => (window as any).__MONACO?.editor.getModels().some((m: any) => m.uri.path.endsWith('-operation.graphql')));
      step = 'headers';
      await page.getByRole('button', { name: 'Headers' }).click();

      // named as the default query is: GraphiQL may still send the default's operation name when Run
      // follows the edit within its debounce
      await typeInto(page, '.graphiql-query-editor', 'query CurrentApp { currentApp { id name } }');
      await typeInto(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', JSON.stringify({ 'X-App-Id': t.appId, 'X-Api-Key': t.secretKey }));
      expect(JSON.parse(await model(page, '-request-headers.json'))).toEqual({ 'X-App-Id': t.appId, 'X-Api-Key': t.secretKey });
      step = 'query';
      await execute(page);
      await page.waitForFunction(() => /currentApp/.test((window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue()));
      expect(JSON.parse(await model(page, '-response.json')).data).toEqual({ currentApp: { id: t.appId, name: 'App' } }); // extensions.cost beside it (docs/cost.md)

      step = 'subscription';
      const subscription = 'subscription { productEvents { event productId product { name sku } } }';
      await typeInto(page, '.graphiql-query-editor', subscription);
      // GraphiQL reads the operation's type from the editor after a debounce: executing before it has
      // seen the new text sends the subscription as an HTTP POST (which the gateway refuses, 400)
      await page.waitForFunction((text) => (window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-operation.graphql')).getValue() === text, subscription);
      await page.waitForTimeout(1000);
      await execute(page);
      // on a loaded machine the debounce can take longer: one more click once the first went over HTTP
      const sent = await Promise.race([subscribed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 8000))]);
      if (!sent) {
        await execute(page);
        // the first click's POST was refused (400) as it should be: that console line is expected
        const refused = seen.errors.findIndex((e) => /status of 400/.test(e));
        if (refused >= 0) seen.errors.splice(refused, 1);
      }
      await subscribed;
      step = 'event';
      const sku = uniq('SKU-');
      const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Browser lamp', sku }), headers: t.keyHeaders });
      expect(created.status).toBe(201);
      await page.waitForFunction(
        (id) => (window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue().includes(id),
        created.body.data.id as string,
        { timeout: 15_000 },
      );
      const shown = JSON.parse(await model(page, '-response.json'));
      expect(shown.data).toEqual({ productEvents: { event: 'product.created', productId: created.body.data.id, product: { name: 'Browser lamp', sku } } });
      // the event's id in its tenant's stream, to resume from (docs/subscriptions.md)
      expect(shown.extensions?.eventId).toMatch(/^\d+-\d+$/);

      await page.screenshot({ path: outputPath('graphiql.png') });

      const gatewayOrigin = new URL(stack().gateway).origin;
      expect(seen.urls).toContain(stack().gateway.replace(/^http/, 'ws'));
      expect(foreignRequests(seen, [gatewayOrigin])).toEqual([]);
      expect(seen.errors).toEqual([]);
    } catch (e) {
      throw new Error(`GraphiQL step "${step}": ${(e as Error).message}\nsocket: ${frames.join(' | ') || '(none)'}\nconsole errors: ${seen.errors.join(' | ') || '(none)'}`);
    } finally {
      await context.close();
    }
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time

  test('GET / in the browser lands on GraphiQL with a query from the URL prefilled, and the CSP blocks nothing it needs', async () => {
    const { context, page, seen } = await recordingContext(browser);
    page.setDefaultTimeout(20_000);
    try {
      const root = stack().gateway.replace(/\/graphql$/, '/');
      await page.goto(root);
      expect(page.url()).toBe(stack().gateway);
      const query = '{ __typename }';
      await page.goto(`${stack().gateway}?query=${encodeURIComponent(query)}`);
      await page.waitForFunction(() => (window as any).__MONACO?.editor.getModels().some((m: any) => m.uri.path.endsWith('-operation.graphql')));
      await page.waitForFunction((q) => (window as any).__MONACO.editor.getModels().some((m: any) => m.uri.path.endsWith('-operation.graphql') && m.getValue() === q), query);
      await execute(page);
      await page.waitForFunction(() => /__typename/.test((window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue()));
      expect(JSON.parse(await model(page, '-response.json')).data).toEqual({ __typename: 'Query' }); // extensions.cost beside it (docs/cost.md)
      expect(foreignRequests(seen, [new URL(stack().gateway).origin])).toEqual([]);
      // a CSP violation is a console error: none
      expect(seen.errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test('opened with ?headers= (the link `npm run seed` prints), the Headers tab holds them and a query runs with them', async () => {
    const { context, page, seen } = await recordingContext(browser);
    page.setDefaultTimeout(20_000);
    try {
      const headers = { 'X-App-Id': t.appId, 'X-Api-Key': t.secretKey };
      await page.goto(`${stack().gateway}?headers=${encodeURIComponent(JSON.stringify(headers))}`);
      await page.waitForFunction(() => (window as any).__MONACO?.editor.getModels().some((m: any) => m.uri.path.endsWith('-request-headers.json') && m.getValue().includes('X-App-Id')));
      expect(JSON.parse(await model(page, '-request-headers.json'))).toEqual(headers);
      // named as the default query is: GraphiQL may still send the default's operation name when Run
      // follows the edit within its debounce
      await typeInto(page, '.graphiql-query-editor', 'query CurrentApp { currentApp { id name } }');
      await execute(page);
      await page.waitForFunction(() => /currentApp/.test((window as any).__MONACO.editor.getModels().find((m: any) => m.uri.path.endsWith('-response.json')).getValue()));
      expect(JSON.parse(await model(page, '-response.json')).data).toEqual({ currentApp: { id: t.appId, name: 'App' } }); // extensions.cost beside it (docs/cost.md)
      expect(seen.errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});

