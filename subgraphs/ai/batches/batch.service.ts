// Batches (docs/ai.md, Batch): many texts for one analysis operation, accepted at once (202) and
// processed by the kernel job queue (batch.job.ts). Validation happens here, before anything is
// stored, with the same rules as the single endpoints.
import { DomainError } from '../../../lib/errors.js';
import { enqueueJob } from '../../../lib/jobs/index.js';
import type { AiContext } from '../context.js';
import { admitTextCall, planLimits } from '../limits/limits.service.js';
import { ENTITY_TYPES } from '../models/entities.js';
import { ALL_MODERATION_CATEGORIES } from '../models/moderation.js';
import { checkLanguageHint } from '../text/text.service.js';
import { AiBatchEntity, BATCH_OPERATIONS, type BatchOperation } from './batch.entity.js';
import { BATCH_JOB } from './batch.job.js';
import type { AiBatch, BatchInput } from './batch.types.js';

export const MAX_BATCH_INPUTS = 1000;

export async function createBatch(ctx: AiContext, input: BatchInput): Promise<AiBatch> {
  const identity = await admitTextCall(ctx, [], 'inputs');
  const operation = input.operation as BatchOperation;
  if (!(BATCH_OPERATIONS as readonly string[]).includes(operation)) {
    throw new DomainError('VALIDATION_FAILED', `operation must be one of ${BATCH_OPERATIONS.join(', ')}`, { parameter: 'operation' });
  }
  if (!input.inputs.length || input.inputs.length > MAX_BATCH_INPUTS) throw new DomainError('VALIDATION_FAILED', `inputs must hold 1 to ${MAX_BATCH_INPUTS} texts`, { parameter: 'inputs' });
  const empty = input.inputs.findIndex((t) => !t.trim());
  if (empty >= 0) throw new DomainError('VALIDATION_FAILED', `inputs[${empty}] must not be empty`, { parameter: 'inputs' });
  const limit = planLimits(ctx).charactersPerRequest;
  const long = limit === null ? -1 : input.inputs.findIndex((t) => [...t].length > limit);
  if (long >= 0) throw new DomainError('text_too_long', `inputs[${long}] exceeds the plan's ${limit} characters per text`, { parameter: 'inputs', meta: { limit } });
  const options = validateOptions(operation, input);

  const batch = new AiBatchEntity();
  Object.assign(batch, { appId: ctx.tenant.appId!, environment: ctx.tenant.environment!, operation, userUniqueId: identity.userUniqueId, inputs: input.inputs, options });
  // the batch and its job commit together
  await ctx.em.transactional(async (tx) => {
    tx.persist(batch);
    await tx.flush();
    await enqueueJob(tx, 'ai', { kind: BATCH_JOB, payload: { batchId: batch.id, appId: batch.appId, environment: batch.environment }, key: `ai.batch:${batch.appId}` });
  });
  return toBatch(batch);
}

export async function getBatch(ctx: AiContext, id: string): Promise<AiBatch> {
  await admitTextCall(ctx, [], 'batchId');
  const row = await ctx.em.findOne(AiBatchEntity, { id });
  if (!row) throw new DomainError('batch_not_found', `Batch ${id} does not exist in this tenant`, { parameter: 'batchId' });
  return toBatch(row);
}

export function toBatch(e: AiBatchEntity): AiBatch {
  return {
    id: e.id,
    operation: e.operation,
    status: e.status,
    total: e.inputs.length,
    processed: e.processed,
    results: e.results ?? null,
    error: e.error ?? null,
    createdAt: e.createdAt,
    completedAt: e.completedAt ?? null,
  };
}

function validateOptions(operation: BatchOperation, input: BatchInput): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (input.language !== undefined && input.language !== null && operation !== 'language' && operation !== 'moderation') checkLanguageHint(input.language, ['en']);
  if (operation === 'entities' && input.types) {
    const types = input.types.map((t) => t.toUpperCase());
    const unknown = types.filter((t) => !(ENTITY_TYPES as readonly string[]).includes(t));
    if (unknown.length) throw new DomainError('VALIDATION_FAILED', `types: unknown entity type ${unknown.join(', ')}`, { parameter: 'types' });
    o.types = types;
  }
  if (operation === 'key_phrases') {
    const max = input.maxPhrases ?? 10;
    if (!Number.isInteger(max) || max < 1 || max > 50) throw new DomainError('VALIDATION_FAILED', 'max_phrases must be an integer from 1 to 50', { parameter: 'maxPhrases' });
    o.max = max;
  }
  if (operation === 'summarize' && input.maxLength !== undefined && input.maxLength !== null) {
    if (!Number.isInteger(input.maxLength) || input.maxLength < 20) throw new DomainError('VALIDATION_FAILED', 'max_length must be an integer of at least 20', { parameter: 'maxLength' });
    o.maxLength = input.maxLength;
  }
  if (operation === 'moderation' && input.categories) {
    const cats = input.categories.map((c) => c.toLowerCase());
    const unknown = cats.filter((c) => !(ALL_MODERATION_CATEGORIES as readonly string[]).includes(c));
    if (unknown.length) throw new DomainError('VALIDATION_FAILED', `categories: unknown ${unknown.join(', ')}`, { parameter: 'categories' });
    o.categories = cats;
  }
  return o;
}
