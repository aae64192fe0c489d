// npm run seed [-- --platform demo] [--products 24] [--rest URL] [--gateway URL] [--json]
// A demo tenant with data in every service, made through the public API of a running stack
// (`npm start` first): a platform, the account `demo-books` on the Growth plan, an app with a secret
// and a publishable key, a registered AI user; products from datasets/books.json; a search index of
// all the books; AI examples (a sentiment analysis, a prompt). Prints the keys, a GraphiQL link with
// them filled in and curl examples that work as pasted; also written to DATA_DIR/seed.json, which
// `npm run import` reads its key from.
//
// Run again, it reuses what is there (every step finds before it creates) and prints the same keys
// (kept in seed.json; new ones only when those no longer work). The data set is checked before
// anything is written; a failure prints one line, and the next run finishes the same tenant.
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../lib/config.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { parseCli } from './cli-args.js';
import { ApiError, doc, RestApi, waitForTask } from './api-client.js';
import { readDataset } from './datasets.js';
import { bookDocuments, bookProducts, type Book } from './seed-data.js';
import { envExports, printSeed, withExamples, type SeedSummary } from './seed-print.js';

const USAGE = `usage: npm run seed [-- --platform demo] [--products 24] [--rest URL] [--gateway URL] [--json | --env]
A demo tenant (platform, account demo-books, app, keys, products, the books index, AI examples) made
through the public API of a running stack (npm start first). Run again, it reuses the tenant and
prints the same keys. --json prints everything as JSON; --env only shell exports of the keys,
for eval "$(npm run -s seed -- --env)".`;
const { values } = parseCli(USAGE, {
  options: {
    platform: { type: 'string', default: 'demo' },
    rest: { type: 'string' },
    gateway: { type: 'string' },
    products: { type: 'string', default: '24' },
    json: { type: 'boolean', default: false },
    env: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
const cfg = loadConfig();
const restUrl = (values.rest ?? process.env.REST_URL ?? `http://${cfg.host}:${cfg.restPort}`).replace(/\/+$/, '');
const gatewayUrl = values.gateway ?? cfg.gatewayUrl;
const seedFile = resolve(cfg.dataDir, 'seed.json');
const say = (line: string) => {
  if (!values.json && !values.env) console.error(line);
};
/** One line, no stack trace. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

// The data first: nothing is written when it does not make a valid catalogue.
const productCount = Number(values.products);
if (!Number.isInteger(productCount) || productCount < 1 || productCount > 244) fail('--products must be 1..244 (the books of datasets/books.json)');
let books: Book[];
try {
  books = JSON.parse(readDataset('books.json')) as Book[];
} catch (e) {
  fail(`cannot read the books data set: ${(e as Error).message}`);
}
const catalogue = bookProducts(books.slice(0, productCount));
const dupes = catalogue.map((p) => p.sku).filter((s, i, all) => all.indexOf(s) !== i);
if (dupes.length) fail(`books.json gives duplicate SKUs (${dupes.join(', ')}): nothing was created`);

const anonymous = new RestApi(restUrl);
const ready = await anonymous.call('GET', '/health/ready').catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
if (ready.status !== 200) fail(`the REST bridge at ${restUrl} is not ready (${ready.status === 0 ? ready.body : `HTTP ${ready.status}`}); start the stack with \`npm start\` first`);

let step = 'starting';
try {
  const summary = withExamples(await seed());
  mkdirSync(cfg.dataDir, { recursive: true });
  writeFileSync(seedFile, JSON.stringify(summary, null, 2) + '\n', { mode: 0o600 });
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else if (values.env) console.log(envExports(summary));
  else console.log(printSeed(summary, seedFile));
} catch (e) {
  const detail = e instanceof ApiError ? apiErrorLine(e) : (e as Error).message;
  fail(`seed stopped while ${step}: ${detail}. Run \`npm run seed\` again: it reuses what was made and finishes the same tenant.`);
}

function apiErrorLine(e: ApiError): string {
  const b = e.result.body;
  const err = b?.errors?.[0];
  const what = err ? `${err.code ?? err.title ?? ''} ${err.detail ?? ''}` : b?.error ? `${b.error} ${b.message ?? ''}` : String(b ?? '').slice(0, 200);
  return `HTTP ${e.result.status} ${what.trim()}`;
}

async function seed(): Promise<SeedSummary> {
  // 1. Platform, account, app, keys (a platform administrator's JWT, signed with JWT_SECRET as mint-token does)
  const now = Math.floor(Date.now() / 1000);
  const adminToken = signJwt({ sub: 'demo-admin', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
  const platformCode = values.platform!;
  const admin = anonymous.as({ authorization: `Bearer ${adminToken}`, 'x-platform': platformCode });

  step = 'creating the platform';
  const platform = await admin.expect(step, [201, 409], 'POST', '/platforms', doc('platforms', { code: platformCode, name: 'Demo platform' }));
  say(`platform ${platformCode} ${platform?.data ? 'created' : 'already there'}`);

  step = 'finding or creating the account demo-books';
  const accountUrlId = 'demo-books';
  const found = await admin.call('GET', `/accounts/${accountUrlId}`);
  if (found.status === 404) {
    await admin.expect(step, 201, 'POST', '/accounts', doc('accounts', { name: 'Demo Books Ltd', code: accountUrlId, url_id: accountUrlId, deployment_model: 'dedicated_cloud' }));
  } else if (found.status !== 200) throw new ApiError(step, found);
  say(`account ${accountUrlId} ${found.status === 200 ? 'already there' : 'created'}`);

  step = 'subscribing the account to Growth';
  const subs = (await admin.expect(step, 200, 'GET', `/accounts/${accountUrlId}/subscriptions`)).data as { attributes: { status: string } }[];
  if (!subs.some((s) => s.attributes.status !== 'canceled')) {
    await admin.expect(step, 201, 'POST', `/accounts/${accountUrlId}/subscriptions`, doc('subscriptions', { model_code: 'growth', trial: false }));
  }

  step = 'finding or creating the app Demo shop';
  const apps = (await admin.expect(step, 200, 'GET', `/accounts/${accountUrlId}/apps`)).data as { id: string; attributes: { name: string } }[];
  const appId = apps.find((a) => a.attributes.name === 'Demo shop')?.id ?? (await admin.expect(step, 201, 'POST', `/accounts/${accountUrlId}/apps`, doc('apps', { name: 'Demo shop', app_type: 'web', purpose: 'production' }))).data.id;

  step = 'checking the keys of the last seed';
  const previous = existsSync(seedFile) ? (JSON.parse(readFileSync(seedFile, 'utf8')) as Partial<SeedSummary>) : {};
  const works = async (key?: string) => !!key && (await anonymous.as({ 'x-app-id': appId, 'x-api-key': key }).call('GET', '/v1/products?page[size]=1')).status === 200;
  let secretKey = previous.appId === appId ? previous.secretKey : undefined;
  let publishableKey = previous.appId === appId ? previous.publishableKey : undefined;
  if (!(await works(secretKey)) || !(await works(publishableKey))) {
    step = 'creating the API keys';
    const key = async (keyType: string) =>
      (await admin.expect(`creating the ${keyType} key`, 201, 'POST', `/accounts/${accountUrlId}/apps/${appId}/api_keys`, doc('api_keys', { name: `demo ${keyType}`, key_type: keyType, environment: 'live' }))).data.attributes.key_id as string;
    secretKey = await key('secret');
    publishableKey = await key('publishable');
    say(`app ${appId}: keys created`);
  } else say(`app ${appId}: keys of ${seedFile} reused`);
  const keyHeaders = { 'x-app-id': appId, 'x-api-key': secretKey! };
  const api = anonymous.as(keyHeaders);

  // 2. Catalog: the first books as products (POST /v1/products allows 100 a minute per key)
  step = 'creating the products';
  const total = (await api.expect(step, 200, 'GET', '/v1/products?page[size]=1')).meta?.total as number;
  if (total < catalogue.length) {
    for (const p of catalogue) {
      const r = await api.call('POST', '/v1/products', doc('products', p));
      if (r.status !== 201 && r.body?.errors?.[0]?.code !== 'SKU_ALREADY_EXISTS') throw new ApiError(`creating the product ${p.sku}`, r);
    }
  }
  const firstProduct = (await api.expect(step, 200, 'GET', `/v1/products/sku/${catalogue[0].sku}`)).data;
  say(`${catalogue.length} products ${total >= catalogue.length ? 'already there' : 'created'}`);

  // 3. Search: every book in the index `books`, with facets on language and author
  step = 'indexing the books';
  const indexUid = 'books';
  const documents = bookDocuments(books);
  const index = await api.call('GET', `/search/v1/indexes/${indexUid}`);
  if (index.status === 404) {
    await api.expect(step, 201, 'POST', '/search/v1/indexes', doc('indexes', { uid: indexUid, primary_key: 'id', settings: { filterable_attributes: ['language', 'author'], sortable_attributes: ['title'] } }));
  } else if (index.status !== 200) throw new ApiError(step, index);
  if (index.body?.data?.attributes?.number_of_documents !== documents.length) {
    const added = (await api.expect(step, 202, 'POST', `/search/v1/indexes/${indexUid}/documents`, doc('documents', { documents }))).data;
    const task = await waitForTask(api, added.id);
    if (task.attributes.status !== 'succeeded') throw new Error(`task ${task.id} ${task.attributes.status} ${JSON.stringify(task.attributes.error)}`);
  }
  say(`index ${indexUid}: ${documents.length} documents`);

  // 4. AI: a registered user, a sentiment analysis and a prompt
  step = 'registering the AI user';
  const userId = 'demo-user';
  // as long-lived as the JWT rules allow (JWT_MAX_LIFETIME_SEC, a day by default)
  const userLifetime = cfg.jwt.maxLifetimeSec;
  const userToken = signJwt({ sub: userId, scope: '', iat: now, exp: now + userLifetime }, cfg.jwtSecret);
  const ai = anonymous.as({ ...keyHeaders, authorization: `Bearer ${userToken}` });
  await ai.expect(step, [200, 201], 'POST', `/identities/${userId}/register`);
  step = 'analysing a review';
  const review = 'A wonderful book: I could not put it down, and the ending is perfect.';
  const sentiment = (await ai.expect(step, 200, 'POST', '/ai/v1/text/sentiment', doc('sentiment_requests', { text: review }))).data.attributes;
  step = 'finding or creating the prompt Book blurb';
  const prompts = (await ai.expect(step, 200, 'GET', '/prompts')).data as { id: string; attributes: { name: string } }[];
  const promptId =
    prompts.find((p) => p.attributes.name === 'Book blurb')?.id ??
    ((await ai.expect(step, 201, 'POST', '/prompts', doc('prompts', { name: 'Book blurb', content: 'Write a two-sentence blurb for {{title}} by {{author}}.', description: 'demo' }))).data.id as string);
  say(`AI: sentiment "${sentiment.label}", prompt ${promptId}`);

  return {
    rest: restUrl,
    gateway: gatewayUrl,
    platform: platformCode,
    adminToken,
    account: accountUrlId,
    appId,
    secretKey: secretKey!,
    publishableKey: publishableKey!,
    userId,
    userToken,
    userLifetimeSec: userLifetime,
    products: catalogue.length,
    firstProduct: { id: firstProduct.id, sku: firstProduct.attributes.sku, name: firstProduct.attributes.name },
    index: indexUid,
    documents: documents.length,
    prompt: promptId,
  };
}
