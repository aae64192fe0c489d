// The job that runs a batch (kernel queue, lib/jobs): each input through the operation's model in
// the text workers, progress on the row every PROGRESS_EVERY inputs, then the results and the
// job's completion and the `batch.completed` webhook deliveries in one transaction, and the event
// on the app's AI topic after commit (GraphQL subscription aiEvents). A batch whose job dies is marked failed, and announced too.
import type { EntityManager } from '@mikro-orm/postgresql';
import { aiEventsTopic, type AiEventPayload } from '../event-types.js';
import { publishAfterCommit } from '../../../lib/events.js';
import type { JobKind } from '../../../lib/jobs/index.js';
import type { WorkerDeps } from '../../../lib/subgraph.js';
import { scopeToApp } from '../../../lib/tenant-entity.js';
import type { Environment, TenantContext } from '../../../lib/tenant.js';
import type { AiRuntime } from '../runtime.js';
import { emitAiEvent } from '../webhooks/ai-webhook.js';
import { AiBatchEntity, type BatchOperation } from './batch.entity.js';

export const BATCH_JOB = 'ai.batch.run';
const PROGRESS_EVERY = 50;

interface BatchJobPayload {
  batchId: string;
  appId: string;
  environment: Environment;
}

type Deps = WorkerDeps & { runtime: AiRuntime };

export function batchJobKind(deps: Deps): JobKind<BatchJobPayload> {
  const emFor = (p: BatchJobPayload): EntityManager => {
    const em = deps.orm.em.fork() as EntityManager;
    scopeToApp(em, tenantOf(p));
    return em;
  };
  const announce = async (b: AiBatchEntity) => {
    const payload: AiEventPayload = { event: 'batch.completed', occurredAt: new Date().toISOString(), batchId: b.id, operation: b.operation, status: b.status };
    await publishAfterCommit(deps, aiEventsTopic(b.appId, b.environment), payload, payload.event);
  };
  return {
    kind: BATCH_JOB,
    maxAttempts: 3,
    backoff: { baseMs: 1000, maxMs: 10_000 },
    async handle({ job, complete }) {
      const em = emFor(job.payload);
      const batch = await em.findOne(AiBatchEntity, { id: job.payload.batchId });
      if (!batch || batch.status === 'completed') return;
      batch.status = 'processing';
      await em.flush();
      const results: unknown[] = [];
      const productNames = batch.operation === 'entities' ? await deps.runtime.productNames.names(tenantOf(job.payload)) : [];
      for (const text of batch.inputs) {
        results.push(await runOne(deps.runtime, batch.operation, text, batch.options, productNames));
        if (results.length % PROGRESS_EVERY === 0) {
          batch.processed = results.length;
          await em.flush();
        }
      }
      await em.transactional(async (tx) => {
        const row = await tx.findOneOrFail(AiBatchEntity, { id: batch.id });
        Object.assign(row, { status: 'completed', processed: results.length, results, completedAt: new Date() });
        await tx.flush();
        await emitAiEvent(deps.runtime, tx, job.payload, 'batch.completed', { batch_id: row.id, operation: row.operation, status: 'completed', total: results.length });
        await complete(tx);
      });
      batch.status = 'completed';
      await announce(batch);
    },
    async onDead(job, error, tx) {
      const em = tx as EntityManager;
      await em.nativeUpdate(AiBatchEntity, { id: job.payload.batchId }, { status: 'failed', error, completedAt: new Date() });
      await emitAiEvent(deps.runtime, tx, job.payload, 'batch.completed', { batch_id: job.payload.batchId, status: 'failed', error });
      const b = await emFor(job.payload).findOne(AiBatchEntity, { id: job.payload.batchId });
      if (b) await announce(Object.assign(b, { status: 'failed' }));
    },
  };
}

function tenantOf(p: BatchJobPayload): TenantContext {
  return { kind: 'service', requestId: `batch:${p.batchId}`, scopes: [], appId: p.appId, environment: p.environment };
}

/** One input → the attributes the single endpoint would answer (snake_case). */
async function runOne(rt: AiRuntime, op: BatchOperation, text: string, o: Record<string, any>, productNames: string[]): Promise<unknown> {
  switch (op) {
    case 'sentiment':
      return rt.text.run('sentiment', { text });
    case 'entities':
      return { entities: await rt.text.run('entities', { text, types: o.types ?? [], productNames }) };
    case 'key_phrases':
      return { key_phrases: await rt.text.run('keyPhrases', { text, max: o.max ?? 10 }) };
    case 'language':
      return rt.text.run('language', { text, alternatives: 3 });
    case 'summarize': {
      const r = await rt.text.run('summarize', { text, maxLength: o.maxLength ?? Math.max(200, Math.ceil(text.length / 3)) });
      return r;
    }
    case 'moderation':
      return rt.text.run('moderate', { text, categories: o.categories });
  }
}
