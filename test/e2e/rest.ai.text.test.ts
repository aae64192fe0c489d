// AI text analysis, moderation, embeddings and translation end to end, in both styles: REST bridge
// → gateway → ai subgraph → worker-thread models (and Apertium, onnxruntime-node), and GraphQL on
// the gateway. Each answer is checked against what the named method does on real text.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gql, jsonApi, mintToken, rest, stack, uniq } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { ROOT } from '../harness/spawn.js';
import { writeTinyModel } from '../harness/onnx-builder.js';


const post = (u: AiUser, path: string, type: string, attributes: Record<string, unknown>) => rest('POST', path, { body: jsonApi(type, attributes), headers: u.headers });

const TED =
  'When I was a kid, I was always fascinated by how things worked. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998. ' +
  'I saw the wings of a plane being built by hundreds of people. That day I decided I wanted to build things too. Years later I studied engineering at MIT, ' +
  'and the first thing I built was a terrible robot that could not walk. But building that robot taught me more than any lecture.';

let u: AiUser;
beforeAll(async () => {
  u = await aiUser();
});

describe('POST /ai/v1/text/sentiment', () => {
  test('a positive and a negative review; per-class scores sum to 1', async () => {
    const pos = await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'The pasta was not bad at all, actually quite delicious!' });
    expect(pos.status).toBe(200);
    expect(pos.body.data).toMatchObject({ type: 'sentiment_results', id: expect.stringMatching(/^sen_/), attributes: { label: 'positive', model: 'vader-sentiment-1.1.3+review-rules' } });
    const a = pos.body.data.attributes;
    expect(a.score).toBeGreaterThan(0.5);
    expect(a.scores.positive + a.scores.neutral + a.scores.negative).toBeCloseTo(1, 2);
    const neg = await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'The delivery was late and the box arrived broken. Terrible service.', language: 'en' });
    expect(neg.body.data.attributes).toMatchObject({ label: 'negative' });
    expect(neg.body.data.attributes.score).toBeLessThan(-0.5);
  });

  test('GraphQL: the same answer as REST', async () => {
    const text = 'I love this phone, the battery lasts forever.';
    const r = await gql('mutation($i: SentimentInput!) { textSentiment(input: $i) { label score confidence scores { positive neutral negative } } }', { i: { text } }, u.headers);
    expect(r.body.errors).toBeUndefined();
    const viaRest = await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', { text });
    expect(r.body.data.textSentiment).toEqual({ label: viaRest.body.data.attributes.label, score: viaRest.body.data.attributes.score, confidence: viaRest.body.data.attributes.confidence, scores: viaRest.body.data.attributes.scores });
  });

  test('a language hint the model does not read → 400 invalid_language naming language (both styles)', async () => {
    const r = await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'Me encanta este teléfono', language: 'es' });
    const e = expectServiceError(r, 'ai', 400, 'invalid_language', { parameter: 'language' });
    expect(e.detail).toContain('en');
    const g = await gql('mutation($i: SentimentInput!) { textSentiment(input: $i) { label } }', { i: { text: 'x', language: 'es' } }, u.headers);
    expect(g.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_language', parameter: 'language' });
  });

  test('missing text → 422 naming text; wrong data.type → 409', async () => {
    expectServiceError(await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', {}), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'text' });
    expectServiceError(await post(u, '/ai/v1/text/sentiment', 'entity_requests', { text: 'hi' }), 'ai', 409, 'INVALID_RESOURCE_TYPE');
  });
});

describe('POST /ai/v1/text/entities', () => {
  test('people, organisations, places, dates, products, events and works of art with offsets into the text', async () => {
    const text = 'Tim Cook presented the new iPhone in Paris on 3 March 2024, days before the World Cup. Apple paid $5 million to show the Mona Lisa.';
    const r = await post(u, '/ai/v1/text/entities', 'entity_requests', { text });
    expect(r.status).toBe(200);
    const entities = r.body.data.attributes.entities as Array<{ text: string; type: string; start: number; end: number; confidence: number }>;
    for (const e of entities) expect(text.slice(e.start, e.end)).toBe(e.text);
    const pairs = entities.map((e) => `${e.type}:${e.text}`);
    expect(pairs).toEqual(expect.arrayContaining(['PERSON:Tim Cook', 'PRODUCT:iPhone', 'LOCATION:Paris', 'DATE:3 March 2024', 'EVENT:World Cup', 'ORG:Apple', 'MONEY:$5 million', 'WORK_OF_ART:Mona Lisa']));
  });

  test('types filters; GraphQL gives the same entities', async () => {
    const r = await post(u, '/ai/v1/text/entities', 'entity_requests', { text: TED, types: ['ORG', 'DATE'] });
    const types = new Set(r.body.data.attributes.entities.map((e: any) => e.type));
    expect([...types].sort()).toEqual(['DATE', 'ORG']);
    const g = await gql('mutation($i: EntitiesInput!) { textEntities(input: $i) { entities { text type start end } } }', { i: { text: TED, types: ['ORG', 'DATE'] } }, u.headers);
    expect(g.body.data.textEntities.entities).toEqual(r.body.data.attributes.entities.map(({ confidence: _c, ...e }: any) => e));
  });

  test("PRODUCT recognises the tenant's own catalogue names (read from the catalog service), not another tenant's", async () => {
    const [mine, other] = await Promise.all([aiUser(), aiUser()]);
    const name = `Aurora ${uniq('Lamp')}`;
    const p = await rest('POST', '/v1/products', { body: jsonApi('products', { name, sku: uniq('SKU-') }), headers: mine.t.keyHeaders });
    expect(p.status).toBe(201);
    const text = `Yesterday I bought the ${name.toLowerCase()} for my desk.`;
    const r = await post(mine, '/ai/v1/text/entities', 'entity_requests', { text, types: ['PRODUCT'] });
    expect(r.body.data.attributes.entities).toEqual([{ text: name.toLowerCase(), type: 'PRODUCT', start: text.indexOf(name.toLowerCase()), end: text.indexOf(name.toLowerCase()) + name.length, confidence: 0.95 }]);
    const theirs = await post(other, '/ai/v1/text/entities', 'entity_requests', { text, types: ['PRODUCT'] });
    expect(theirs.body.data.attributes.entities).toEqual([]);
  });

  test('an unknown type → 422 naming types', async () => {
    expectServiceError(await post(u, '/ai/v1/text/entities', 'entity_requests', { text: 'x', types: ['ANIMAL'] }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'types' });
  });
});

describe('POST /ai/v1/text/key-phrases, /language, /summarize', () => {
  test('key phrases: the repeated noun phrases rank first, max_phrases caps the list', async () => {
    const text = 'Electric vehicles are getting cheaper because battery prices fell. Battery prices fell by a fifth, and electric vehicles now compete with petrol cars.';
    const r = await post(u, '/ai/v1/text/key-phrases', 'key_phrase_requests', { text, max_phrases: 3 });
    expect(r.status).toBe(200);
    const phrases = r.body.data.attributes.key_phrases;
    expect(phrases).toHaveLength(3);
    expect(phrases.slice(0, 2).map((p: any) => p.phrase.toLowerCase()).sort()).toEqual(['battery prices', 'electric vehicles']);
    expect(phrases[0].score).toBe(1);
    expectServiceError(await post(u, '/ai/v1/text/key-phrases', 'key_phrase_requests', { text, max_phrases: 0 }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'max_phrases' });
  });

  test('language: Spanish with alternatives; GraphQL agrees', async () => {
    const text = 'Me gustaría reservar una mesa para dos personas esta noche.';
    const r = await post(u, '/ai/v1/text/language', 'language_requests', { text });
    expect(r.body.data.attributes).toMatchObject({ language: 'es', language_name: 'Spanish', model: 'fasttext-lid.176+eld-2.1.0+script-rules' });
    expect(r.body.data.attributes.confidence).toBeGreaterThan(0.8);
    expect(r.body.data.attributes.alternatives).toHaveLength(3);
    const g = await gql('mutation($i: LanguageInput!) { textLanguage(input: $i) { language languageName } }', { i: { text } }, u.headers);
    expect(g.body.data.textLanguage).toEqual({ language: 'es', languageName: 'Spanish' });
  });

  test('summary: sentences of the text within max_length, compression ratio reported', async () => {
    const r = await post(u, '/ai/v1/text/summarize', 'summarize_requests', { text: TED, max_length: 200, style: 'extractive' });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(a.length).toBeLessThanOrEqual(200);
    expect(a.length).toBe(a.summary.length);
    expect(a.compression_ratio).toBeCloseTo(a.summary.length / TED.length, 3);
    for (const s of a.summary.split(/(?<=\.) /)) expect(TED).toContain(s);
    expectServiceError(await post(u, '/ai/v1/text/summarize', 'summarize_requests', { text: TED, style: 'abstractive' }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'style' });
  });
});

describe('POST /ai/v1/moderation/text', () => {
  test('a threat is violence → block; a friendly text → allow; only the requested categories', async () => {
    const bad = await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: 'I will kill you if you come back here.' });
    expect(bad.status).toBe(200);
    expect(bad.body.data.attributes).toMatchObject({ flagged: true, action: 'block', categories: { violence: { flagged: true } } });
    const ok = await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: 'Thanks for the recipe, the soup was lovely.', categories: ['hate', 'spam'] });
    expect(ok.body.data.attributes).toMatchObject({ flagged: false, action: 'allow' });
    expect(Object.keys(ok.body.data.attributes.categories).sort()).toEqual(['hate', 'spam']);
    const g = await gql('mutation($i: ModerationInput!) { moderateText(input: $i) { flagged action categories { spam { flagged score } } } }', { i: { text: 'CONGRATULATIONS!!! You have won a free iPhone, click here now' } }, u.headers);
    expect(g.body.data.moderateText).toMatchObject({ flagged: true, categories: { spam: { flagged: true } } });
  });

  test('by intent: a threat without threat words is violence, self-harm and harassment answer when asked for, kill -9 is allowed', async () => {
    const threat = await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: "I'm going to find you after work and break your legs." });
    expect(threat.body.data.attributes).toMatchObject({ flagged: true, categories: { violence: { flagged: true } } });
    expect(threat.body.data.attributes.model).toContain('intent-rules');
    const selfHarm = await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: "What's the most painless way to end my life?", categories: ['violence', 'self_harm', 'harassment'] });
    const c = selfHarm.body.data.attributes.categories;
    expect(Object.keys(c).sort()).toEqual(['harassment', 'self_harm', 'violence']);
    expect(c.self_harm.flagged).toBe(true);
    expect(c.violence.score).toBeGreaterThanOrEqual(c.self_harm.score);
    const tech = await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: "Kill the process with kill -9 if it doesn't respond." });
    expect(tech.body.data.attributes).toMatchObject({ flagged: false, action: 'allow' });
    const g = await gql('mutation($i: ModerationInput!) { moderateText(input: $i) { flagged categories { harassment { flagged } selfHarm { flagged } } } }', { i: { text: 'Shut up, you pathetic idiot.', categories: ['harassment', 'self_harm'] } }, u.headers);
    expect(g.body.data.moderateText).toMatchObject({ flagged: true, categories: { harassment: { flagged: true }, selfHarm: { flagged: false } } });
  });

  test('an unknown category → 422 naming categories', async () => {
    expectServiceError(await post(u, '/ai/v1/moderation/text', 'moderation_requests', { text: 'x', categories: ['politics'] }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'categories' });
  });
});

describe('POST /ai/v1/embeddings and /similarity', () => {
  test('default model glove-sif-100d: one unit vector per input, known words counted; similarity ranks by meaning', async () => {
    const r = await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: ['reset my password', 'password reset link'] });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ model: 'glove-sif-100d', usage: { tokens: 6 } });
    expect(a.embeddings.map((e: any) => [e.index, e.dimensions, e.embedding.length])).toEqual([[0, 100, 100], [1, 100, 100]]);
    expect(Math.hypot(...a.embeddings[0].embedding)).toBeCloseTo(1, 3);
    // no shared word, same meaning
    const m = await post(u, '/ai/v1/embeddings/similarity', 'similarity_requests', { source: 'is wireless internet free at the hotel?', targets: ['The museum opens at ten', 'Wi-Fi is included in every room at no extra cost'] });
    expect(m.body.data.attributes.model).toBe('glove-sif-100d');
    expect(m.body.data.attributes.similarities[1].score).toBeGreaterThan(m.body.data.attributes.similarities[0].score + 0.2);
    // the lexical model stays selectable by name
    const h = await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: ['reset my password'], model: 'hashed-ngrams-384' });
    expect(h.body.data.attributes).toMatchObject({ model: 'hashed-ngrams-384', usage: { tokens: 3 } });
    expect(h.body.data.attributes.embeddings[0].dimensions).toBe(384);
    const s = await post(u, '/ai/v1/embeddings/similarity', 'similarity_requests', { source: 'How do I reset my password?', targets: ['The weather is sunny today', 'Password reset instructions'] });
    const scores = s.body.data.attributes.similarities;
    expect(scores.map((x: any) => x.index)).toEqual([0, 1]);
    expect(scores[1].score).toBeGreaterThan(scores[0].score);
  });

  test('an ONNX model dropped into the models directory is used by name (REST and GraphQL)', async () => {
    const name = uniq('tiny-');
    writeTinyModel(resolve(ROOT, '.data', 'test', 'models'), name);
    const r = await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: ['the cat sat on the mat', 'stock markets fell'], model: name });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ model: name, usage: { tokens: 14 } });
    expect(r.body.data.attributes.embeddings[0].dimensions).toBe(8);
    const g = await gql('mutation($i: SimilarityInput!) { embeddingSimilarity(input: $i) { model similarities { index score } } }', { i: { source: 'the cat sat', targets: ['the cat sat', 'stock markets fell'], model: name } }, u.headers);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.embeddingSimilarity.similarities[0].score).toBeCloseTo(1, 4);
    const models = await gql('{ embeddingModels { name kind } }', {}, u.headers);
    expect(models.body.data.embeddingModels).toEqual(expect.arrayContaining([{ name: 'glove-sif-100d', kind: 'builtin' }, { name: 'hashed-ngrams-384', kind: 'builtin' }, { name, kind: 'onnx' }]));
  });

  test('an unknown model → 422 naming model and the installed ones; no inputs → 422', async () => {
    const e = expectServiceError(await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: ['x'], model: 'all-MiniLM-L6-v2' }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'model' });
    expect(e.detail).toContain('glove-sif-100d, hashed-ngrams-384');
    // the model is named, the operator's directory never
    expect(e.detail).toContain('all-MiniLM-L6-v2');
    expect(JSON.stringify(e)).not.toContain(resolve(ROOT, '.data'));
    expect(JSON.stringify(e)).not.toMatch(/\/(models|\.data|work|home|srv|opt)\//);
    expectServiceError(await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: [] }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'inputs' });
  });

  test("a model whose files do not load → 503 model_unavailable naming the model, not a path or the loader's message", async () => {
    const name = uniq('broken-');
    const folder = writeTinyModel(resolve(ROOT, '.data', 'test', 'models'), name);
    writeFileSync(resolve(folder, 'model.onnx'), 'not an onnx model');
    const e = expectServiceError(await post(u, '/ai/v1/embeddings', 'embedding_requests', { inputs: ['x'], model: name }), 'ai', 503, 'model_unavailable');
    expect(JSON.stringify(e)).toContain(name);
    expect(JSON.stringify(e)).not.toContain(folder);
    expect(JSON.stringify(e)).not.toMatch(/model\.onnx|\/(models|\.data)\//);
  });
});

describe('POST /ai/v1/translate, GET /ai/v1/translate/languages', () => {
  test('languages lists exactly the installed Apertium pairs; English → Spanish translates', async () => {
    const l = await rest('GET', '/ai/v1/translate/languages', { headers: u.headers });
    expect(l.status).toBe(200);
    const en = l.body.data.find((x: any) => x.id === 'en');
    expect(en).toMatchObject({ type: 'languages', attributes: { name: 'English' } });
    expect(en.attributes.targets).toContain('es');
    const r = await post(u, '/ai/v1/translate', 'translation_requests', { text: 'The cat sleeps in the house.', source_language: 'en', target_language: 'es' });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ source_language: 'en', target_language: 'es', translated_text: expect.stringMatching(/gato/) });
    expect(r.body.data.attributes.confidence).toBe(1);
    const g = await gql('mutation($i: TranslateInput!) { translate(input: $i) { translatedText sourceLanguage } }', { i: { text: 'El gato duerme.', targetLanguage: 'en' } }, u.headers);
    expect(g.body.data.translate).toMatchObject({ sourceLanguage: 'es', translatedText: expect.stringMatching(/cat/i) });
  });

  test('a pair that is not installed → 400 invalid_language naming the available pairs', async () => {
    const r = await post(u, '/ai/v1/translate', 'translation_requests', { text: 'The cat sleeps.', source_language: 'en', target_language: 'ja' });
    const e = expectServiceError(r, 'ai', 400, 'invalid_language', { parameter: 'target_language' });
    expect(e.detail).toContain('en-es');
  });
});

describe('plan limits and registration', () => {
  test('free plan: more than 5,000 characters → 400 text_too_long naming the limit', async () => {
    const r = await post(u, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'a'.repeat(5001) });
    const e = expectServiceError(r, 'ai', 400, 'text_too_long', { parameter: 'text' });
    expect(e.detail).toContain('5000');
  });

  test('the starter plan allows 25,000 characters', async () => {
    const starter = await aiUser('starter');
    const r = await post(starter, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'good '.repeat(1200) });
    expect(r.status).toBe(200);
  });

  test('free plan: the 61st AI request in a minute → 429 rate_limit_exceeded with Retry-After', async () => {
    const me = await aiUser();
    const seconds = new Date().getSeconds();
    if (seconds > 45) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const statuses = await Promise.all(Array.from({ length: 60 }, () => post(me, '/ai/v1/text/language', 'language_requests', { text: 'hello there my friend' }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    const r = await post(me, '/ai/v1/text/language', 'language_requests', { text: 'hello there my friend' });
    expectServiceError(r, 'ai', 429, 'RATE_LIMITED');
    const retry = Number(r.headers.get('retry-after'));
    expect(retry >= 1 && retry <= 60).toBe(true);
  }, 60_000);

  test('an unregistered user → 404 usr-not-registered (shape B) in both styles', async () => {
    const headers = { ...u.headers, authorization: `Bearer ${mintToken({ sub: uniq('stranger_'), scopes: [] })}` };
    const r = await rest('POST', '/ai/v1/text/sentiment', { body: jsonApi('sentiment_requests', { text: 'hi' }), headers });
    expectServiceError(r, 'ai', 404, 'usr-not-registered');
    const g = await gql('mutation { textLanguage(input: { text: "hello" }) { language } }', {}, headers);
    expect(g.body.errors?.[0]?.extensions).toMatchObject({ code: 'usr-not-registered' });
  });
});

test("the gateway's /health/detailed shows a super-admin the AI models loaded", async () => {
  const url = stack().gateway.replace(/\/graphql$/, '/health/detailed');
  const r = { body: await (await fetch(url, { headers: { authorization: `Bearer ${mintToken({ scopes: ['platform:superadmin'] })}` } })).json() };
  expect(r.body.components.ai.details).toMatchObject({ text: { status: 'ready' }, translation: { status: 'ready' }, embeddings: { builtin: ['glove-sif-100d', 'hashed-ngrams-384'] } });
});
