// npm run seed [-- --platform demo] [--rest URL] [--gateway URL] [--json]
// A demo tenant with data in every service, made through the public API of a running stack
// (`npm start` first): a platform, an account on the Growth plan, an app with a secret and a
// publishable key, a registered user; products from the shared books data set; a search index of
// all the books; AI examples (a sentiment analysis, a prompt). Prints the keys and working curl
// and GraphQL examples; also written to DATA_DIR/seed.json, which `npm run import` reads its key from.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { doc, RestApi, waitForTask } from './api-client.js';
import { datasetsDir } from './datasets.js';

const { values } = parseArgs({
  options: {
    platform: { type: 'string', default: 'demo' },
    rest: { type: 'string' },
    gateway: { type: 'string' },
    datasets: { type: 'string' },
    products: { type: 'string', default: '24' },
    json: { type: 'boolean', default: false },
  },
});
const cfg = loadConfig();
const restUrl = (values.rest ?? process.env.REST_URL ?? `http://${cfg.host}:${cfg.restPort}`).replace(/\/+$/, '');
const gatewayUrl = values.gateway ?? cfg.gatewayUrl;
const datasets = values.datasets ? resolve(values.datasets) : datasetsDir();
const say = (line: string) => {
  if (!values.json) console.error(line);
};

interface Book {
  id: string;
  title: string;
  author: string;
  language?: string;
  publisher?: string;
  isbn13?: string;
  details?: { rating?: string; pages?: string; isbn?: string };
}

const anonymous = new RestApi(restUrl);
const ready = await anonymous.call('GET', '/health/ready').catch((e: Error) => ({ status: 0, body: e.message, headers: new Headers() }));
if (ready.status !== 200) {
  console.error(`error: the REST bridge at ${restUrl} is not ready (${ready.status === 0 ? ready.body : `HTTP ${ready.status}`}); start the stack with \`npm start\` first`);
  process.exit(1);
}

// 1. Platform, account, app, keys (a platform administrator's JWT, signed with JWT_SECRET as mint-token does)
const now = Math.floor(Date.now() / 1000);
const adminToken = signJwt({ sub: 'demo-admin', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
const platformCode = values.platform!;
const admin = anonymous.as({ authorization: `Bearer ${adminToken}`, 'x-platform': platformCode });
const platform = await admin.call('POST', '/platforms', doc('platforms', { code: platformCode, name: 'Demo platform' }));
if (platform.status !== 201 && platform.status !== 409) throw new Error(`create platform: HTTP ${platform.status} ${JSON.stringify(platform.body)}`);
say(`platform ${platformCode} ${platform.status === 201 ? 'created' : 'already there'}`);
const suffix = randomBytes(3).toString('hex');
const account = (await admin.expect('create account', 201, 'POST', '/accounts', doc('accounts', { name: 'Demo Books Ltd', code: `demo-${suffix}`, deployment_model: 'dedicated_cloud' }))).data;
const accountUrlId = account.attributes.url_id as string;
await admin.expect('subscribe to growth', 201, 'POST', `/accounts/${accountUrlId}/subscriptions`, doc('subscriptions', { model_code: 'growth', trial: false }));
const app = (await admin.expect('create app', 201, 'POST', `/accounts/${accountUrlId}/apps`, doc('apps', { name: 'Demo shop', app_type: 'web', purpose: 'production' }))).data;
const key = async (keyType: string) =>
  (await admin.expect(`create ${keyType} key`, 201, 'POST', `/accounts/${accountUrlId}/apps/${app.id}/api_keys`, doc('api_keys', { name: `demo ${keyType}`, key_type: keyType, environment: 'live' }))).data.attributes.key_id as string;
const secretKey = await key('secret');
const publishableKey = await key('publishable');
const keyHeaders = { 'x-app-id': app.id as string, 'x-api-key': secretKey };
const api = anonymous.as(keyHeaders);
say(`account ${accountUrlId}, app ${app.id}, keys created`);

// 2. Catalog: the first books as products (POST /v1/products allows 100 a minute per key)
const books = JSON.parse(readFileSync(resolve(datasets, 'books.json'), 'utf8')) as Book[];
const productCount = Math.min(books.length, Number(values.products));
const products: { id: string; sku: string; name: string }[] = [];
for (const b of books.slice(0, productCount)) {
  const pages = Number(b.details?.pages) || 200;
  const attributes = {
    name: b.title,
    sku: `BOOK-${b.isbn13 ?? b.id}`,
    description: `${b.title} by ${b.author.replace(/\//g, ', ')}${b.publisher ? ` (${b.publisher})` : ''}.`,
    status: 'active',
    type: 'physical',
    price: { amount: 799 + (pages % 30) * 100, currency: 'USD' },
    inventory: { quantity: 10 + (pages % 40), track_stock: true },
    attributes: { author: b.author, language: b.language ?? null, pages, rating: Number(b.details?.rating) || null },
  };
  const p = (await api.expect(`create product ${attributes.sku}`, 201, 'POST', '/v1/products', doc('products', attributes))).data;
  products.push({ id: p.id, sku: attributes.sku, name: attributes.name });
}
say(`${products.length} products created`);

// 3. Search: every book in the index `books`, with facets on language and author
const indexUid = 'books';
await api.expect('create index', 201, 'POST', '/search/v1/indexes', doc('indexes', { uid: indexUid, primary_key: 'id', settings: { filterable_attributes: ['language', 'author'], sortable_attributes: ['title'] } }));
const documents = books.map((b) => ({ id: b.id, title: b.title, author: b.author, language: b.language, publisher: b.publisher, rating: Number(b.details?.rating) || null, pages: Number(b.details?.pages) || null }));
const added = (await api.expect('add documents', 202, 'POST', `/search/v1/indexes/${indexUid}/documents`, doc('documents', { documents }))).data;
const task = await waitForTask(api, added.id);
if (task.attributes.status !== 'succeeded') throw new Error(`indexing the books: task ${task.id} ${task.attributes.status} ${JSON.stringify(task.attributes.error)}`);
say(`index ${indexUid}: ${documents.length} documents`);

// 4. AI: a registered user, a sentiment analysis and a prompt
const userId = 'demo-user';
// as long-lived as the JWT rules allow (JWT_MAX_LIFETIME_SEC, a day by default)
const userLifetime = cfg.jwt.maxLifetimeSec;
const userToken = signJwt({ sub: userId, scope: '', iat: now, exp: now + userLifetime }, cfg.jwtSecret);
const ai = anonymous.as({ ...keyHeaders, authorization: `Bearer ${userToken}` });
await ai.expect('register the demo user', [200, 201], 'POST', `/identities/${userId}/register`);
const review = 'A wonderful book: I could not put it down, and the ending is perfect.';
const sentiment = (await ai.expect('sentiment', 200, 'POST', '/ai/v1/text/sentiment', doc('sentiment_requests', { text: review }))).data.attributes;
const prompt = (await ai.expect('create a prompt', 201, 'POST', '/prompts', doc('prompts', { name: 'Book blurb', content: 'Write a two-sentence blurb for {{title}} by {{author}}.', description: 'demo' }))).data;
say(`AI: sentiment "${sentiment.label}", prompt ${prompt.id}`);

// 5. What to try next
const keyArgs = `-H 'X-App-Id: ${app.id}' -H 'X-Api-Key: ${secretKey}'`;
const graphqlQuery = '{ products(pageSize: 3) { total items { id name sku price { formatted } } } }';
const examples = {
  listProducts: `curl -sg ${keyArgs} '${restUrl}/v1/products?page[size]=3'`,
  search: `curl -s ${keyArgs} -H 'Content-Type: application/json' -d '{"data":{"type":"search_queries","attributes":{"query":"harry potter","limit":3,"facets":["language"]}}}' '${restUrl}/search/v1/indexes/${indexUid}/search'`,
  graphql: `curl -s ${keyArgs} -H 'Content-Type: application/json' -d '${JSON.stringify({ query: graphqlQuery })}' '${gatewayUrl}'`,
  sentiment: `curl -s ${keyArgs} -H 'Authorization: Bearer ${userToken}' -H 'Content-Type: application/json' -d '{"data":{"type":"sentiment_requests","attributes":{"text":"Great book!"}}}' '${restUrl}/ai/v1/text/sentiment'`,
};
const summary = {
  rest: restUrl,
  gateway: gatewayUrl,
  platform: platformCode,
  adminToken,
  account: accountUrlId,
  appId: app.id as string,
  secretKey,
  publishableKey,
  userId,
  userToken,
  products: products.length,
  firstProduct: products[0],
  index: indexUid,
  documents: documents.length,
  prompt: prompt.id as string,
  examples,
};
mkdirSync(cfg.dataDir, { recursive: true });
writeFileSync(resolve(cfg.dataDir, 'seed.json'), JSON.stringify(summary, null, 2) + '\n', { mode: 0o600 });

if (values.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(`
Demo tenant ready (also in ${resolve(cfg.dataDir, 'seed.json')}):
  platform        ${platformCode}   (admin JWT, 1 h: ${adminToken})
  account         ${accountUrlId}
  app             ${app.id}
  secret key      ${secretKey}
  publishable key ${publishableKey}
  user (AI)       ${userId}   (JWT, ${Math.round(userLifetime / 3600)} h: ${userToken})
  data            ${products.length} products, index "${indexUid}" with ${documents.length} books, prompt ${prompt.id}

REST (reference: ${restUrl}/docs):
  ${examples.listProducts}
  ${examples.search}
  ${examples.sentiment}

GraphQL (explorer: ${gatewayUrl}, headers { "X-App-Id": "${app.id}", "X-Api-Key": "${secretKey}" }):
  ${examples.graphql}
`);
}
