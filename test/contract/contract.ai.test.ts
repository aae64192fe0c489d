// The AI document (ai.md, extracted to documents/ai.json) as tests through the REST bridge: every
// documented path answers its documented shape, every documented request attribute is accepted,
// every field table is answered with its types, every error code is reachable with its status.
import { jsonApi, mintToken, rest, uniq } from '../harness/client.js';
import {
  errorSuite,
  fieldsNotShownSuite,
  fieldSuite,
  loadDocument,
  pathSuite,
  printCoverage,
  requestAttributeSuite,
  resourceKey,
  shapeProblems,
  type ContractDocument,
  type FieldsNotShownPlan,
  type KnownElsewhere,
} from '../harness/contract.js';
import { imageServer, photoUrl } from '../harness/images.js';
import { startLlmServer } from '../harness/llm-server.js';
import { TRAINING_EXAMPLES } from '../harness/ai-custom.fixtures.js';
import { createSecTenant, type SecTenant } from '../harness/security.js';

const doc = loadDocument('ai');

/** Rows known not to hold yet (value: the issue item that fixes it); empty: every documented row holds. */
const KNOWN_FIXED_ELSEWHERE: KnownElsewhere = {};

/** "Render and execute request body: `placeholders` (object)": a paragraph under the table, so named here. */
const STYLES = { 'POST /ai/v1/prompts/:unique_id/render': 'plain', 'POST /prompts/:unique_id/render': 'plain', 'POST /prompts/:unique_id/execute': 'plain' } as const;

const setup = async () => {
  await imageServer();
  await startLlmServer();
};

/**
 * A tenant whose user is registered (every AI call but registration needs one: rule 1), on the
 * Growth plan (the suite's calls stay within its limits); `free`: no subscription, the Free plan's limits.
 */
async function aiTenant(plan = 'growth'): Promise<SecTenant> {
  await setup();
  const t = await createSecTenant(plan === 'free' ? {} : { plan });
  const r = await rest('POST', `/identities/${t.userId}/register`, { headers: userHeaders(t) });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  t.extra.aiIdentity = r.body.data.id;
  return t;
}

const userHeaders = (t: SecTenant) => ({ 'x-app-id': t.appId, 'x-api-key': t.secretKey, authorization: `Bearer ${t.userToken}` });

/** The fields the document lists for `resource` (a field table, or prose with `data.type`), as a check of an answer's data. */
function resourceCheck(d: ContractDocument, resource: string, root: 'attributes' | 'data' = 'attributes') {
  const fields = d.fields.filter((f) => resourceKey(f.resource) === resource && f.kind !== 'query');
  const dataType = fields.find((f) => f.dataType)?.dataType;
  return (res: { body: any }): string[] => {
    const data = res.body?.data;
    const at = root === 'data' ? data : { id: data?.id, ...data?.attributes };
    const out = shapeProblems(at, fields, root === 'data' ? 'data' : 'data.attributes', { nullable: true });
    if (dataType && data?.type !== dataType) out.push(`data.type is ${data?.type}, documented ${dataType}`);
    return out;
  };
}

/** "`data.id` is an integer (it was formerly a UUID)" */
const integerId = (res: { body: any }) => (Number.isInteger(res.body?.data?.id) ? [] : [`data.id ${JSON.stringify(res.body?.data?.id)} is not an integer`]);

const agentContextShape = doc.shapes.find((s) => s.name === 'agent_context');

const pathOptions = {
  known: KNOWN_FIXED_ELSEWHERE,
  styles: STYLES,
  setup,
  extra: {
    // "Response 201 with the identity resource" (the Identity table, written from data)
    'POST /identities/:user_unique_id/register': resourceCheck(doc, 'identity', 'data'),
    // "Render returns a rendered prompt resource; execute returns a prompt execution resource"; "data.id is an integer"
    'POST /ai/v1/prompts/:unique_id/render': (res: { body: any }) => [...resourceCheck(doc, 'rendered_prompt')(res), ...integerId(res)],
    'POST /prompts/:unique_id/render': (res: { body: any }) => [...resourceCheck(doc, 'rendered_prompt')(res), ...integerId(res)],
    'POST /prompts/:unique_id/execute': resourceCheck(doc, 'prompt_execution'),
    // "response 201 with the agent context resource": Response `data`: id, type = agent_context, attributes …
    'POST /agents/:id/context': (res: { body: any }) => [
      ...(res.body?.data?.type === 'agent_context' ? [] : [`data.type is ${res.body?.data?.type}, documented agent_context`]),
      ...shapeProblems({ id: res.body?.data?.id, ...res.body?.data?.attributes }, agentContextShape?.attrs ?? [], 'data.attributes', { nullable: true }),
    ],
  },
};

describe('the AI document', () => {
  test('its rows were extracted (documents/ai.json)', () => {
    expect(doc.endpoints.length).toBeGreaterThan(20);
    expect(agentContextShape).toBeDefined();
  });

  afterAll(() =>
    printCoverage('ai.md', {
      paths: doc.endpoints.length,
      'request attributes': doc.endpoints.reduce((n, r) => n + (r.requestAttrs?.length ?? 0), 0),
      'response attributes': doc.endpoints.reduce((n, r) => n + (r.responseAttrs?.length ?? 0), 0),
      fields: doc.fields.length,
      'error codes': doc.errors.length,
      'resources with fields not shown': doc.fieldsNotShown.length,
    }),
  );
});

pathSuite(doc, pathOptions, aiTenant);

const TEXT = 'Ada Lovelace wrote the first program in London. The machine was remarkable.';

requestAttributeSuite(
  doc,
  {
    'POST /ai/v1/text/sentiment': () => ({ text: 'The service was friendly and fast.', language: 'en' }),
    'POST /ai/v1/text/entities': () => ({ text: TEXT, types: ['PERSON', 'LOCATION'] }),
    'POST /ai/v1/text/key-phrases': () => ({ text: TEXT, max_phrases: 3 }),
    'POST /ai/v1/text/language': () => ({ text: TEXT }),
    'POST /ai/v1/text/summarize': () => ({ text: TEXT, max_length: 60, style: 'extractive' }),
    'POST /ai/v1/image/classify': () => ({ image_url: photoUrl('dog'), max_labels: 3 }),
    'POST /ai/v1/image/detect': () => ({ image_url: photoUrl('dog'), min_confidence: 0.4 }),
    'POST /ai/v1/image/ocr': () => ({ image_url: photoUrl('dog'), detect_orientation: true }),
    'POST /ai/v1/recommendations': () => ({ user_id: 'user-1', context: 'home', item_id: 'item-1', limit: 5, filters: { category: 'books' } }),
    'POST /ai/v1/recommendations/events': () => ({ user_id: uniq('u'), event_type: 'purchase', item_id: 'item-1', timestamp: new Date().toISOString(), metadata: { source: 'contract' } }),
    'POST /ai/v1/moderation/text': () => ({ text: 'Have a lovely day.', categories: ['hate', 'violence', 'sexual', 'spam'] }),
    'POST /ai/v1/moderation/image': () => ({ image_url: photoUrl('dog'), categories: ['adult', 'violence', 'hate'] }),
    'POST /ai/v1/embeddings': () => ({ inputs: ['a red apple', 'a green pear'], model: 'hashed-ngrams-384' }),
    'POST /ai/v1/embeddings/similarity': () => ({ source: 'a red apple', targets: ['a green apple', 'stock prices'] }),
    'POST /ai/v1/translate': () => ({ text: 'The cat sleeps.', source_language: 'en', target_language: 'es' }),
    'POST /ai/v1/classifiers': () => ({ name: 'Contract', description: 'documented fields', labels: ['positive', 'negative'] }),
    'POST /ai/v1/classifiers/:classifier_id/train': () => ({ examples: TRAINING_EXAMPLES }),
    'POST /ai/v1/classifiers/:classifier_id/classify': () => ({ text: 'It works great' }),
    // the document bounds no secret: a short one is a secret too
    'POST /ai/v1/webhooks': () => ({ url: 'http://127.0.0.1:9/hook', events: ['moderation.flagged', 'classifier.trained', 'batch.completed'], secret: 'whsec_test_123' }),
  },
  { ...pathOptions, known: KNOWN_FIXED_ELSEWHERE },
  aiTenant,
);

const AGENT = 'contract-agent';

fieldSuite(
  doc,
  {
    identity: {
      values: () => ({}),
      create: (t) => rest('POST', `/identities/${t.userId}/register`, { headers: userHeaders(t) }),
      read: (t) => rest('POST', `/identities/${t.userId}/register`, { headers: userHeaders(t) }),
      fields: (res) => res.body?.data,
    },
    agent_context: {
      values: () => ({ unique_id: crypto.randomUUID(), content: 'The user prefers e-mail.', type: 'user_preference', reference: uniq('ref-'), source_id: uniq('src-'), source_alias: 'CRM' }),
      create: (t, v) => rest('POST', `/agents/${AGENT}/context`, { body: jsonApi('agent_context', v), headers: userHeaders(t) }),
      read: (t) => rest('GET', `/agents/${AGENT}/context`, { headers: userHeaders(t) }),
    },
    rendered_prompt: {
      values: () => ({}),
      create: async (t) => {
        const p = await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Contract', content: 'Hello {{name}}' }), headers: userHeaders(t) });
        return rest('POST', `/prompts/${p.body.data.id}/render`, { body: jsonApi('rendered_prompts', { placeholders: { name: 'Ada' } }), headers: userHeaders(t) });
      },
      // a rendered prompt is not stored: its answer is the record
      read: async (_t, created) => ({ ...created, status: 200 }),
    },
    prompt_execution: {
      values: () => ({}),
      create: async (t) => {
        const p = await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Contract', content: 'Say {{word}}' }), headers: userHeaders(t) });
        return rest('POST', `/prompts/${p.body.data.id}/execute`, { body: jsonApi('prompt_executions', { placeholders: { word: 'hello' } }), headers: userHeaders(t) });
      },
      read: async (_t, created) => ({ ...created, status: 200 }),
    },
  },
  KNOWN_FIXED_ELSEWHERE,
  aiTenant,
);

/** A request of the tenant's registered user. */
const post = (t: SecTenant, path: string, type: string, attributes: Record<string, unknown>, headers = userHeaders(t)) => rest('POST', path, { body: jsonApi(type, attributes), headers });

/** One tenant for the error recipes that need no plan of their own. */
let errorTenant: Promise<SecTenant> | undefined;
const recipeTenant = () => (errorTenant ??= aiTenant());

errorSuite(
  doc,
  'ai',
  (d) => d.errors,
  {
    'usr-not-registered': async () => {
      const t = await recipeTenant();
      const stranger = { ...userHeaders(t), authorization: `Bearer ${mintToken({ sub: uniq('user_'), scopes: [] })}` };
      return post(t, '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'hello' }, stranger);
    },
    'invalid-uuid-format': async () => post(await recipeTenant(), `/agents/${AGENT}/context`, 'agent_context', { unique_id: 'my-custom-id', content: 'x' }),
    // the Free plan's 5,000 characters per request
    text_too_long: async () => post(await aiTenant('free'), '/ai/v1/text/sentiment', 'sentiment_requests', { text: 'word '.repeat(1001) }),
    invalid_image_format: async () => post(await recipeTenant(), '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${await imageServer()}/text.jpg` }),
    invalid_language: async () => post(await recipeTenant(), '/ai/v1/translate', 'translation_requests', { text: 'hello', source_language: 'en', target_language: 'xx' }),
    classifier_not_found: async () => post(await recipeTenant(), '/ai/v1/classifiers/clf_missing/classify', 'classification_requests', { text: 'hi' }),
    model_unavailable: async () => {
      const t = await recipeTenant();
      const p = await post(t, '/prompts', 'prompts', { name: 'Contract', content: 'Answer {{q}}' });
      return post(t, `/prompts/${p.body.data.id}/execute`, 'prompt_executions', { placeholders: { q: 'x [[status:500]]' } });
    },
    // the Free plan's 10 images per minute: the 11th call
    rate_limit_exceeded: async () => {
      const t = await aiTenant('free');
      const base = await imageServer();
      let last = await post(t, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/missing.jpg` });
      for (let i = 0; i < 14 && last.status !== 429; i++) last = await post(t, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/missing.jpg` });
      return last;
    },
  },
  KNOWN_FIXED_ELSEWHERE,
);

/**
 * "Fields of a prompt record beyond its identifier, name, content and description: not shown": a
 * prompt keeps the attributes beyond those as given. "Fields of agents, threads, messages, runs,
 * entities, entity files, clusters and conversations: not shown", and so are their paths: the
 * product serves none of them (only an agent's context, whose table the document gives).
 */
const notServed = (path: string): FieldsNotShownPlan => ({ notServed: { method: 'POST', path, headers: userHeaders } });

const FIELDS_NOT_SHOWN: Record<string, FieldsNotShownPlan> = {
  prompt: {
    keeps: {
      write: (t, x) => rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Contract', content: 'Hello {{name}}', ...x }), headers: userHeaders(t) }),
      read: async (t, w) => (await rest('GET', '/prompts', { headers: userHeaders(t) })).body?.data?.find((p: any) => p.id === w.body.data.id)?.attributes,
    },
  },
  agents: notServed('/agents'),
  threads: notServed('/threads'),
  messages: notServed('/messages'),
  runs: notServed('/runs'),
  entities: notServed('/entities'),
  entity_files: notServed('/entity_files'),
  clusters: notServed('/clusters'),
  conversations: notServed('/conversations'),
};

fieldsNotShownSuite(doc, FIELDS_NOT_SHOWN, KNOWN_FIXED_ELSEWHERE, aiTenant);
