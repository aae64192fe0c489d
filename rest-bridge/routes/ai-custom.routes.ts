// AI service (document 2): custom classifiers, recommendations, prompts and agent context.
// API key + user JWT like every AI route; reading and running need ai:read, creating what the app
// keeps (classifiers, trainings, events, prompts, agent context) ai:write (docs/ai.md).
import { getParam, intParam } from '../query.js';
import { resource } from '../jsonapi.js';
import type { ResourceObject, Route } from '../types.js';

const read = { service: 'ai', auth: 'apiKey+jwt', scope: 'ai:read', status: 200 } as const;
const write = { ...read, scope: 'ai:write', status: 201 } as const;

/** A rendered prompt's id is an integer in the body (ai.md, Versioning), not the usual string. */
const integerId = (r: ResourceObject, id: number): ResourceObject => ({ ...r, id: id as unknown as string });

const renderRoute = (path: string): Route => ({
  ...read,
  status: 201,
  method: 'POST',
  path,
  operation: 'RenderPrompt',
  summary: 'Render a prompt (library template or custom) with placeholder values; agent_context fills a placeholder with an agent\'s ranked context',
  body: { type: 'rendered_prompts', input: 'input', anyType: true },
  variables: (r) => ({ uniqueId: r.params.unique_id, input: r.attributes }),
  result: (d) => ({ data: integerId(resource('rendered_prompts', d.renderPrompt), d.renderPrompt.id) }),
  responseType: 'rendered_prompts',
});

export const AI_CUSTOM_ROUTES: Route[] = [
  // ---- custom classifiers
  {
    ...write,
    method: 'POST',
    path: '/ai/v1/classifiers',
    operation: 'CreateClassifier',
    summary: 'Create a custom classifier with its labels',
    body: { type: 'classifiers', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('classifiers', d.createClassifier) }),
    responseType: 'classifiers',
  },
  {
    ...read,
    method: 'GET',
    path: '/ai/v1/classifiers',
    operation: 'Classifiers',
    summary: 'The classifiers of the app',
    variables: () => ({}),
    result: (d) => ({ data: d.classifiers.map((c: Record<string, unknown>) => resource('classifiers', c)) }),
    responseType: 'classifiers',
    list: true,
  },
  {
    ...read,
    method: 'GET',
    path: '/ai/v1/classifiers/:classifier_id',
    operation: 'Classifier',
    summary: 'A classifier: status, model version, held-out accuracy of its model',
    variables: (r) => ({ id: r.params.classifier_id }),
    result: (d) => ({ data: resource('classifiers', d.classifier) }),
    responseType: 'classifiers',
  },
  {
    ...write,
    status: 202,
    method: 'POST',
    path: '/ai/v1/classifiers/:classifier_id/train',
    operation: 'TrainClassifier',
    summary: 'Queue a training on examples (202 at once); classifier.trained announces the model and its held-out accuracy',
    body: { type: 'training_data', input: 'input' },
    variables: (r) => ({ classifierId: r.params.classifier_id, input: r.attributes }),
    result: (d) => ({ data: resource('classifier_trainings', d.trainClassifier) }),
    responseType: 'classifier_trainings',
  },
  {
    ...read,
    method: 'GET',
    path: '/ai/v1/trainings/:training_id',
    operation: 'ClassifierTraining',
    summary: 'A classifier training: status and, once succeeded, accuracy on its held-out split',
    variables: (r) => ({ id: r.params.training_id }),
    result: (d) => ({ data: resource('classifier_trainings', d.classifierTraining) }),
    responseType: 'classifier_trainings',
  },
  {
    ...read,
    method: 'POST',
    path: '/ai/v1/classifiers/:classifier_id/classify',
    operation: 'Classify',
    summary: 'Per-label confidence of a text under the classifier\'s current model',
    body: { type: 'classification_requests', input: 'input' },
    variables: (r) => ({ classifierId: r.params.classifier_id, input: r.attributes }),
    result: (d) => ({ data: resource('classification_results', d.classify) }),
    responseType: 'classification_results',
  },
  // ---- recommendations
  {
    ...read,
    method: 'POST',
    path: '/ai/v1/recommendations',
    operation: 'Recommendations',
    summary: 'Recommendations for a user, an item or a session context (item-item collaborative filtering, popularity fallback)',
    body: { type: 'recommendation_requests', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('recommendation_results', d.recommendations) }),
    responseType: 'recommendation_results',
  },
  {
    ...write,
    method: 'POST',
    path: '/ai/v1/recommendations/events',
    operation: 'RecordRecommendationEvent',
    summary: 'Record a user event (view, click, add_to_cart, purchase, rating, like); the model includes it after its next refresh',
    body: { type: 'recommendation_events', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('recommendation_events', d.recordRecommendationEvent) }),
    responseType: 'recommendation_events',
  },
  // ---- prompts
  {
    ...read,
    method: 'GET',
    path: '/prompts',
    operation: 'Prompts',
    summary: 'The 10 library templates, then the app\'s custom prompts',
    variables: () => ({}),
    result: (d) => ({ data: d.prompts.map((p: Record<string, unknown>) => resource('prompts', p)) }),
    responseType: 'prompts',
    list: true,
  },
  {
    ...write,
    method: 'POST',
    path: '/prompts',
    operation: 'CreatePrompt',
    summary: 'Create a custom prompt from scratch (content) or cloned from a library template (template_unique_id)',
    body: { type: 'prompts', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('prompts', d.createPrompt) }),
    responseType: 'prompts',
  },
  renderRoute('/ai/v1/prompts/:unique_id/render'),
  renderRoute('/prompts/:unique_id/render'),
  {
    ...read,
    status: 201,
    method: 'POST',
    path: '/prompts/:unique_id/execute',
    operation: 'ExecutePrompt',
    summary: 'Render a prompt and run it on the configured OpenAI-compatible model (503 model_unavailable when none is)',
    body: { type: 'prompt_executions', input: 'input', anyType: true },
    variables: (r) => ({ uniqueId: r.params.unique_id, input: r.attributes }),
    result: (d) => ({ data: resource('prompt_executions', d.executePrompt) }),
    responseType: 'prompt_executions',
  },
  // ---- agent context
  {
    ...write,
    method: 'POST',
    path: '/agents/:id/context',
    operation: 'AddAgentContext',
    summary: 'Add an entry to an agent\'s context (an existing unique_id of the agent is replaced); 400 invalid-uuid-format for a unique_id that is not a UUID',
    body: { type: 'agent_context', input: 'input', anyType: true },
    variables: (r) => ({ agentId: r.params.id, input: r.attributes }),
    result: (d) => ({ data: resource('agent_context', d.addAgentContext) }),
    responseType: 'agent_context',
  },
  {
    ...read,
    method: 'GET',
    path: '/agents/:id/context',
    operation: 'AgentContext',
    summary: 'An agent\'s context, newest first; reference= or type= narrow it; query= ranks it by similarity (with score)',
    query: [
      { name: 'reference', type: 'string', description: 'only entries with this reference' },
      { name: 'type', type: 'string', description: 'only entries of this type' },
      { name: 'query', type: 'string', description: 'rank by cosine similarity to this text, best first' },
      { name: 'limit', type: 'integer', description: '1 to 100, default 20' },
    ],
    variables: (r) => ({
      agentId: r.params.id,
      filter: { reference: getParam(r.query, 'reference') ?? null, type: getParam(r.query, 'type') ?? null, query: getParam(r.query, 'query') ?? null, limit: intParam(r.query, 'limit', { default: 20, min: 1, max: 100 }) },
    }),
    result: (d) => ({ data: d.agentContext.map((c: Record<string, unknown>) => resource('agent_context', c)) }),
    responseType: 'agent_context',
    list: true,
  },
];
