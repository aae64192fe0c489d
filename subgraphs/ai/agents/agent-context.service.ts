// Agent context (ai.md, Agents): entries stored per app partition and agent, listed newest first,
// found by reference or type, and ranked by cosine similarity of their embeddings to a query
// (each in the model that embedded it; new entries use the default, embeddings/embedding.service.ts). The RAG Context
// prompt template takes the ranked contents (prompt.service.ts, agentContext).
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { embed } from '../embeddings/embedding.service.js';
import { AI_READ, AI_WRITE, admitTextCall } from '../limits/limits.service.js';
import { cosine } from '../../../lib/hashed-embeddings.js';
import { round } from '../models/sentiment.js';
import { AgentContextEntity } from './agent-context.entity.js';
import type { AgentContext, AgentContextFilter, AgentContextInput } from './agent-context.types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** entries of one agent a query ranks (the newest) */
const MAX_RANKED = 5000;

export async function addAgentContext(ctx: AiContext, agentId: string, input: AgentContextInput): Promise<AgentContext> {
  await admitTextCall(ctx, [input.content], 'content', AI_WRITE);
  if (input.uniqueId != null && !UUID.test(input.uniqueId)) {
    throw new DomainError('invalid-uuid-format', `unique_id "${input.uniqueId}" is not a valid UUID; put custom identifiers in reference, source_id or source_alias`, { parameter: 'uniqueId' });
  }
  checkAgentId(agentId);
  if (!input.content.trim()) throw new DomainError('VALIDATION_FAILED', 'content must not be empty', { parameter: 'content' });
  for (const [k, v, max] of [['type', input.type, 100], ['reference', input.reference, 255], ['sourceId', input.sourceId, 255], ['sourceAlias', input.sourceAlias, 255]] as const) {
    if (v != null && v.length > max) throw new DomainError('VALIDATION_FAILED', `${k} is longer than ${max} characters`, { parameter: k });
  }
  const e = await embed(ctx, [input.content], null);
  const { appId, environment } = await appPartition(ctx);
  const uniqueId = (input.uniqueId ?? randomUUID()).toLowerCase();
  const fields = {
    content: input.content,
    type: input.type ?? null,
    reference: input.reference ?? null,
    sourceId: input.sourceId ?? null,
    sourceAlias: input.sourceAlias ?? null,
    embedding: e.vectors[0].map((x) => round(x, 6)),
    embeddingModel: e.model,
    updatedAt: new Date(),
  };
  // one statement: a concurrent add of the same unique_id updates instead of failing
  const row = await ctx.em.upsert(AgentContextEntity, { id: newId('actx'), createdAt: new Date(), appId, environment, agentId, uniqueId, ...fields }, { onConflictFields: ['appId', 'environment', 'agentId', 'uniqueId'], onConflictExcludeFields: ['id', 'createdAt'] });
  return toContext(row, null);
}

export async function listAgentContext(ctx: AiContext, agentId: string, f: AgentContextFilter): Promise<AgentContext[]> {
  await admitTextCall(ctx, f.query ? [f.query] : [], 'query', AI_READ);
  checkAgentId(agentId);
  const limit = f.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new DomainError('VALIDATION_FAILED', 'limit must be an integer from 1 to 100', { parameter: 'limit' });
  const where = { agentId, ...(f.reference != null ? { reference: f.reference } : {}), ...(f.type != null ? { type: f.type } : {}) };
  if (!f.query?.trim()) {
    const rows = await ctx.em.find(AgentContextEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
    return rows.map((r) => toContext(r, null));
  }
  return (await rank(ctx, where, f.query, limit)).map(([r, s]) => toContext(r, s));
}

/** The agent's entries best matching `query`, best first (for the RAG Context template). */
export async function rankAgentContext(ctx: AiContext, agentId: string, query: string, limit: number): Promise<AgentContext[]> {
  checkAgentId(agentId);
  if (!query.trim()) throw new DomainError('VALIDATION_FAILED', 'agent_context.query must not be empty', { parameter: 'agentContext.query' });
  if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw new DomainError('VALIDATION_FAILED', 'agent_context.limit must be an integer from 1 to 20', { parameter: 'agentContext.limit' });
  return (await rank(ctx, { agentId }, query, limit)).map(([r, s]) => toContext(r, s));
}

/** Each entry is compared in the model that embedded it (entries stored before the default changed keep theirs):
 *  the query is embedded once per model among the ranked entries. */
async function rank(ctx: AiContext, where: Record<string, unknown>, query: string, limit: number): Promise<[AgentContextEntity, number][]> {
  const rows = await ctx.em.find(AgentContextEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: MAX_RANKED });
  const queries = new Map<string, number[]>();
  for (const model of new Set(rows.map((r) => r.embeddingModel))) queries.set(model, (await embed(ctx, [query], model)).vectors[0]);
  return rows
    .map((r) => [r, round(cosine(queries.get(r.embeddingModel)!, r.embedding))] as [AgentContextEntity, number])
    .sort((a, b) => b[1] - a[1] || b[0].createdAt.getTime() - a[0].createdAt.getTime())
    .slice(0, limit);
}

function checkAgentId(agentId: string): void {
  if (!agentId.trim() || agentId.length > 255) throw new DomainError('VALIDATION_FAILED', 'the agent id must be 1 to 255 characters', { parameter: 'id' });
}

const toContext = (r: AgentContextEntity, score: number | null): AgentContext => ({
  id: r.id,
  agentId: r.agentId,
  uniqueId: r.uniqueId,
  content: r.content,
  type: r.type ?? null,
  reference: r.reference ?? null,
  sourceId: r.sourceId ?? null,
  sourceAlias: r.sourceAlias ?? null,
  score,
  createdAt: r.createdAt,
});
