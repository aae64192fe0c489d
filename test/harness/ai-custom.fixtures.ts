// Security-suite fixtures of the AI routes for classifiers, recommendations, prompts and agent
// context (rest-bridge/routes/ai-custom.routes.ts): the smallest valid bodies, and the resources
// their path params name, created once per tenant.
import { jsonApi, rest, uniq, type HttpResult } from './client.js';
import { startLlmServer } from './llm-server.js';
import type { ParamFixture, SecTenant } from './security.js';

const headers = (t: SecTenant) => ({ 'x-app-id': t.appId, 'x-api-key': t.secretKey, authorization: `Bearer ${t.userToken}` });

async function ok(res: Promise<HttpResult>, what: string, status = 201): Promise<HttpResult> {
  const r = await res;
  if (r.status !== status) throw new Error(`fixture ${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

async function registered(t: SecTenant): Promise<void> {
  const r = await rest('POST', `/identities/${t.userId}/register`, { headers: headers(t) });
  if (r.status !== 201 && r.status !== 200) throw new Error(`fixture identity: HTTP ${r.status} ${JSON.stringify(r.body)}`);
}

export const TRAINING_EXAMPLES = [
  { text: 'I love this, it works great', label: 'positive' },
  { text: 'Wonderful quality and fast delivery', label: 'positive' },
  { text: 'This is terrible and broke at once', label: 'negative' },
  { text: 'Awful service, I want a refund', label: 'negative' },
];

/** a trained classifier (labels positive, negative) and the training that trained it */
async function ensureClassifier(t: SecTenant): Promise<void> {
  if (t.extra.classifier) return;
  await registered(t);
  const c = await ok(rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'fixture', labels: ['positive', 'negative'] }), headers: headers(t) }), 'classifier');
  const id = c.body.data.id;
  const tr = await ok(rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: TRAINING_EXAMPLES }), headers: headers(t) }), 'training', 202);
  for (let i = 0; i < 100; i++) {
    const g = await rest('GET', `/ai/v1/classifiers/${id}`, { headers: headers(t) });
    if (g.body?.data?.attributes?.model_version >= 1) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.extra.classifier = id;
  t.extra.training = tr.body.data.id;
}

export const AI_CUSTOM_PARAM_FIXTURES: Record<string, ParamFixture> = {
  classifier_id: { value: (t) => t.extra.classifier, foreignCode: 'classifier_not_found', ensure: ensureClassifier },
  training_id: { value: (t) => t.extra.training, foreignCode: 'training_not_found', ensure: ensureClassifier },
};

export const AI_CUSTOM_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  // agents are the client's own identifiers: another tenant's agent id lists that tenant's (empty) context
  { path: /^\/agents\/:id\//, param: 'id', fixture: { value: () => 'agent-fixture', foreignCode: null } },
  {
    path: /^(\/ai\/v1)?\/prompts\/:unique_id\//,
    param: 'unique_id',
    fixture: {
      value: (t) => t.extra.prompt,
      foreignCode: 'prompt_not_found',
      ensure: async (t) => {
        await startLlmServer();
        if (t.extra.prompt) return;
        await registered(t);
        const r = await ok(rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'fixture', content: 'Say {{word}}' }), headers: headers(t) }), 'prompt');
        t.extra.prompt = r.body.data.id;
      },
    },
  },
  // AI webhooks: an endpoint of the tenant's own (the search webhook of the shared fixture is another service's);
  // DELETE gets a fresh one per call
  { path: /^\/ai\/v1\/webhooks\/:webhook_id/, method: 'GET', param: 'webhook_id', fixture: { value: (t) => t.extra.aiWebhook, foreignCode: 'NOT_FOUND', ensure: (t) => aiWebhook(t, false) } },
  { path: /^\/ai\/v1\/webhooks\/:webhook_id$/, method: 'DELETE', param: 'webhook_id', fixture: { value: (t) => t.extra.aiWebhook, foreignCode: 'NOT_FOUND', ensure: (t) => aiWebhook(t, true) } },
];

async function aiWebhook(t: SecTenant, fresh: boolean): Promise<void> {
  if (t.extra.aiWebhook && !fresh) return;
  await registered(t);
  // for DELETE: a new one only once the last was deleted (the active endpoints of an app are capped)
  if (t.extra.aiWebhook && (await rest('GET', `/ai/v1/webhooks/${t.extra.aiWebhook}`, { headers: headers(t) })).status === 200) return;
  const body = jsonApi('webhooks', { url: 'https://hooks.example.com/ai', events: ['batch.completed'], secret: 'security-fixture-secret' });
  t.extra.aiWebhook = (await ok(rest('POST', '/ai/v1/webhooks', { body, headers: headers(t) }), 'ai webhook')).body.data.id;
}

export const AI_CUSTOM_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  classifiers: () => ({ name: 'Security fixture', labels: ['positive', 'negative'] }),
  training_data: () => ({ examples: TRAINING_EXAMPLES }),
  classification_requests: () => ({ text: 'It works great' }),
  recommendation_requests: () => ({ user_id: 'user-1', limit: 5 }),
  recommendation_events: () => ({ user_id: uniq('u'), event_type: 'view', item_id: 'item-1' }),
  prompts: () => ({ name: 'Security fixture', content: 'Hello {{name}}' }),
  rendered_prompts: () => ({ placeholders: { word: 'hello' } }),
  prompt_executions: () => ({ placeholders: { word: 'hello' } }),
  agent_context: () => ({ content: 'The user prefers email over phone calls.', reference: uniq('ref-') }),
};
