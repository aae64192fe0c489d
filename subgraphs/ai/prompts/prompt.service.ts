// Prompts (ai.md, Prompts): the library templates (prompt.library.ts) and the app's custom prompts,
// rendering with the placeholder grammar (prompt.template.ts) and execution against the configured
// language model (llm.client.ts). Renders and executions are stored per app partition.
import { allInOrder } from '../../../lib/in-order.js';
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { AI_READ, AI_WRITE, admitTextCall } from '../limits/limits.service.js';
import { rankAgentContext } from '../agents/agent-context.service.js';
import { complete } from './llm.client.js';
import { libraryTemplate, PROMPT_LIBRARY, type LibraryTemplate } from './prompt.library.js';
import { PromptEntity, PromptExecutionEntity } from './prompt.entity.js';
import { insertRenderedPrompt } from './rendered-prompt.repository.js';
import { MissingPlaceholder, placeholderNames, render, TemplateError, validateTemplate, type Value } from './prompt.template.js';
import type { CreatePromptInput, Prompt, PromptExecution, RenderedPrompt, RenderPromptInput } from './prompt.types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const MAX_PROMPT_CHARS = 100_000;
const MAX_CUSTOM_PROMPTS = 1000;

export async function listPrompts(ctx: AiContext): Promise<Prompt[]> {
  await admitTextCall(ctx, [], 'prompts', AI_READ);
  const custom = await ctx.em.find(PromptEntity, {}, { orderBy: { createdAt: 'asc', uniqueId: 'asc' }, limit: MAX_CUSTOM_PROMPTS });
  return [...PROMPT_LIBRARY.map(fromLibrary), ...custom.map(fromEntity)];
}

export async function createPrompt(ctx: AiContext, input: CreatePromptInput): Promise<Prompt> {
  const identity = await admitTextCall(ctx, [input.content ?? ''], 'content', AI_WRITE);
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError('VALIDATION_FAILED', 'name must be 1 to 200 characters', { parameter: 'name' });
  let template: LibraryTemplate | undefined;
  if (input.templateUniqueId) {
    template = libraryTemplate(input.templateUniqueId);
    if (!template) throw new DomainError('prompt_not_found', `template_unique_id ${input.templateUniqueId} is not a library template (GET /prompts lists them)`, { parameter: 'templateUniqueId' });
  }
  const content = input.content ?? template?.content;
  if (!content?.trim()) throw new DomainError('VALIDATION_FAILED', 'content is required (or template_unique_id to clone a library template)', { parameter: 'content' });
  if (content.length > MAX_PROMPT_CHARS) throw new DomainError('VALIDATION_FAILED', `content is longer than ${MAX_PROMPT_CHARS} characters`, { parameter: 'content' });
  try {
    validateTemplate(content);
  } catch (e) {
    if (e instanceof TemplateError) throw new DomainError('VALIDATION_FAILED', e.message, { parameter: 'content' });
    throw e;
  }
  const extraAttributes = mergeExtraAttributes({}, input.extraAttributes);
  const { appId, environment } = await appPartition(ctx);
  const row = ctx.em.create(PromptEntity, {
    appId,
    environment,
    name,
    content,
    description: input.description ?? template?.description ?? null,
    templateUniqueId: template?.uniqueId ?? null,
    createdBy: identity.userUniqueId,
    extraAttributes,
  });
  await ctx.em.flush();
  return fromEntity(row);
}

export async function renderPrompt(ctx: AiContext, uniqueId: string, input: RenderPromptInput): Promise<RenderedPrompt> {
  const { identity, prompt: found } = await admitAndFind(ctx, uniqueId);
  const { prompt, text, used } = await renderText(ctx, found, input);
  const { appId, environment } = await appPartition(ctx);
  // one autocommit insert (no unit of work: nothing else is written); the id counts this partition's renders only
  const id = await insertRenderedPrompt(ctx.em, { appId, environment, promptUniqueId: prompt.uniqueId, renderedContent: text, placeholdersUsed: used, userUniqueId: identity.userUniqueId });
  return { id, promptUniqueId: prompt.uniqueId, renderedContent: text, placeholdersUsed: used };
}

export async function executePrompt(ctx: AiContext, uniqueId: string, input: RenderPromptInput): Promise<PromptExecution> {
  const { identity, prompt: found } = await admitAndFind(ctx, uniqueId);
  const { prompt, text } = await renderText(ctx, found, input);
  const started = performance.now();
  const c = await complete(ctx.runtime.llm, text);
  const executionTimeMs = Math.round(performance.now() - started);
  const { appId, environment } = await appPartition(ctx);
  const row = ctx.em.create(PromptExecutionEntity, {
    appId,
    environment,
    promptUniqueId: prompt.uniqueId,
    renderedContent: text,
    response: c.text,
    model: c.model,
    tokensUsed: c.tokensUsed,
    executionTimeMs,
    userUniqueId: identity.userUniqueId,
  });
  await ctx.em.flush();
  return { id: row.id, promptUniqueId: row.promptUniqueId, renderedContent: text, response: c.text, model: c.model, tokensUsed: c.tokensUsed, executionTimeMs };
}

async function findPrompt(ctx: AiContext, uniqueId: string): Promise<{ uniqueId: string; content: string }> {
  const lib = libraryTemplate(uniqueId);
  if (lib) return lib;
  const row = UUID.test(uniqueId) ? await ctx.em.findOne(PromptEntity, { uniqueId: uniqueId.toLowerCase() }) : null;
  if (!row) throw new DomainError('prompt_not_found', `Prompt ${uniqueId} does not exist in this tenant`, { parameter: 'uniqueId' });
  return row;
}

/** The caller admitted (identity, plan limits) and the prompt read at once; the admission's refusal wins. */
async function admitAndFind(ctx: AiContext, uniqueId: string) {
  const [identity, prompt] = await allInOrder([admitTextCall(ctx, [], 'placeholders', AI_READ), findPrompt(ctx, uniqueId)] as const);
  return { identity, prompt };
}

async function renderText(ctx: AiContext, prompt: { uniqueId: string; content: string }, input: RenderPromptInput) {
  const values = { ...(input.placeholders ?? {}) } as Record<string, Value>;
  if (input.agentContext) {
    const a = input.agentContext;
    const name = a.placeholder ?? 'context';
    if (!(name in values)) values[name] = (await rankAgentContext(ctx, a.agentId, a.query, a.limit ?? 5)).map((c) => c.content);
  }
  try {
    const { text, used } = render(prompt.content, values);
    return { prompt, text, used };
  } catch (e) {
    if (e instanceof MissingPlaceholder) {
      throw new DomainError('missing_placeholder', `Placeholder "${e.placeholder}" has no value; the prompt needs ${placeholderNames(prompt.content).join(', ')}`, { parameter: `placeholders.${e.placeholder}` });
    }
    if (e instanceof TemplateError) throw new DomainError('VALIDATION_FAILED', e.message, { parameter: `placeholders.${e.placeholder}` });
    throw e;
  }
}

const fromLibrary = (p: LibraryTemplate): Prompt => ({
  id: p.uniqueId,
  uniqueId: p.uniqueId,
  name: p.name,
  content: p.content,
  description: p.description,
  source: 'library',
  tier: p.tier,
  templateUniqueId: null,
  placeholders: placeholderNames(p.content),
  extraAttributes: {},
  createdAt: null,
});

const fromEntity = (p: PromptEntity): Prompt => ({
  id: p.uniqueId,
  uniqueId: p.uniqueId,
  name: p.name,
  content: p.content,
  description: p.description ?? null,
  source: 'custom',
  tier: null,
  templateUniqueId: p.templateUniqueId ?? null,
  placeholders: placeholderNames(p.content),
  extraAttributes: p.extraAttributes ?? {},
  createdAt: p.createdAt,
});
