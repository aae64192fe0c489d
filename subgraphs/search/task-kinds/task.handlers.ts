// What each task type does inside its transaction, and what follows its commit: the handlers the task
// runner (tasks/task.job.ts) is given by this folder's module. They sit above tasks/, documents/ and
// indexes/ because they write documents and read index settings while documents and indexes enqueue
// tasks; tasks/ is the mechanism the other two use and imports neither. A handler throws a client error
// (DomainError/EngineError) to fail the task with nothing applied.
import { DomainError } from '../../../lib/errors.js';
import { run } from '../db.js';
import type { Document } from '../../../lib/search-engine/types.js';
import { engineCall } from '../errors.js';
import { deleteAllOfIndex, mergeDocuments, refreshDocumentStats, statsStale, tombstone, upsertDocumentsFromPayload } from '../documents/document.store.js';
import { documentSlots, inferPrimaryKey, mergedById } from '../documents/primary-key.rules.js';
import { payloadDocumentTexts } from '../documents/document.payload.js';
import { defaultSettings, mergeSettings, type IndexSettingsData, type IndexSettingsPatch } from '../indexes/index-settings.rules.js';
import { notifyIndexDropped } from '../engine-registry/engine-drops.js';
import { PLAN_LIMITS, type PlanCode } from '../plans.js';
import { T } from '../sql.js';
import type { HandlerInput, HandlerResult, TaskHandler, TaskHandlers, TaskIndexRow } from '../tasks/task.handler.js';

/** The index row's stored settings, as the index aggregate reads them. */
function settingsOf(index: TaskIndexRow): IndexSettingsData {
  return index.settings as IndexSettingsData;
}

function previous(index: TaskIndexRow): number {
  return Number(index.applied_task_id);
}

interface WrittenBatch {
  /** documents the index gained */
  added: number;
  /** each id's document as stored now, for the engine */
  docs: Document[];
  /** their JSON texts, when the payload holds them as stored */
  texts?: string[];
}

/**
 * Write an addition task's documents. Replace (POST): the bodies come from this task's payload row,
 * which the task deletes at its end, and the engine keeps their texts as the payload wrote them.
 * Update (PUT): merged into the stored documents, which PostgreSQL answers with. While PostgreSQL
 * writes them, the engine takes the batch of the previous task (applyLater).
 */
async function writeBatch(i: HandlerInput, documents: Document[], pk: string): Promise<WrittenBatch> {
  const { c, task, index, payload, payloadText, rt } = i;
  if (payload.update === true) {
    const merging = mergedById(documents, pk);
    const written = mergeDocuments(c, index.id, Number(task.id), merging);
    void rt.engines.flushPending(index.id);
    const { added, stored } = await written;
    return { added, docs: [...merging.keys()].map((id) => stored.get(id)!) };
  }
  const slots = documentSlots(documents, pk);
  const written = upsertDocumentsFromPayload(c, index.id, Number(task.id), slots);
  void rt.engines.flushPending(index.id);
  const added = await written;
  const ids = [...slots.keys()];
  const texts = payloadDocumentTexts(payloadText, documents.length);
  return { added, docs: ids.map((id) => documents[slots.get(id)!]), texts: texts && ids.map((id) => texts[slots.get(id)!]) };
}

const addDocuments: TaskHandler = async (i) => {
  const { task, index, payload, rt, elapsed } = i;
  const documents = payload.documents as Document[];
  const given = (payload.primary_key as string | undefined) ?? undefined;
  if (given && index.primary_key && given !== index.primary_key) {
    throw new DomainError('index_primary_key_already_exists', `Index \`${index.uid}\` already has the primary key \`${index.primary_key}\`; it cannot be changed to \`${given}\`.`, {
      parameter: 'primaryKey',
    });
  }
  const pk = index.primary_key ?? given ?? inferPrimaryKey(documents[0]);
  const { added, docs, texts } = await writeBatch(i, documents, pk);
  const before = Number(index.number_of_documents);
  const limit = PLAN_LIMITS[(payload.plan as PlanCode) ?? rt.cfg.defaultPlan]?.documentsPerIndex ?? null;
  if (limit !== null && before + added > limit) {
    // thrown inside the task's transaction: the rows just written roll back with it
    throw new DomainError(
      'document_limit_exceeded',
      `Index \`${index.uid}\` would hold ${before + added} documents; the ${payload.plan ?? rt.cfg.defaultPlan} plan allows ${limit} per index.`,
      { parameter: 'documents' },
    );
  }
  return {
    details: { ...task.details, documents_received: documents.length, documents_indexed: docs.length, primary_key: pk },
    count: docs.length,
    documentsDelta: added,
    primaryKey: pk,
    webhook: { event: 'indexing.completed', data: { task_id: String(task.uid), index_uid: index.uid, documents_indexed: docs.length, duration_ms: elapsed() } },
    // the engine takes the batch later, in commit order, before anything reads it (applyLater)
    after: async () => {
      if (statsStale(before, before + added)) {
        // in the background, on a connection of its own: the next batches are planned on it
        void refreshDocumentStats(rt.pool).catch((e) => rt.log.warn('analyze of search documents failed', { err: e }));
      }
      void rt.engines.applyLater(index.id, previous(index), Number(task.id), (e) => engineCall(() => e.addDocuments(docs, pk, texts)));
    },
  };
};

async function deleteIds(i: HandlerInput, ids: string[], details: Record<string, unknown>): Promise<HandlerResult> {
  const { c, task, index, rt, elapsed } = i;
  const gone = await tombstone(c, index.id, Number(task.id), ids);
  return {
    details: { ...task.details, ...details, deleted_documents: gone.length },
    count: gone.length,
    documentsDelta: -gone.length,
    webhook: { event: 'indexing.completed', data: { task_id: String(task.uid), index_uid: index.uid, documents_indexed: 0, deleted_documents: gone.length, duration_ms: elapsed() } },
    after: () => rt.engines.applyCommitted(index.id, previous(index), Number(task.id), (e) => (gone.length ? e.deleteDocuments(gone) : 0)),
  };
}

const deleteDocuments: TaskHandler = (i) => deleteIds(i, i.payload.document_ids as string[], {});

const deleteByFilter: TaskHandler = async (i) => {
  const { index, payload, rt } = i;
  // The engine answers the filter as of the previous task (this one holds the index row locked).
  const engine = await rt.engines.get({
    id: index.id,
    settings: settingsOf(index),
    appliedTaskId: previous(index),
    purgedThroughTaskId: Number(index.purged_through_task_id),
  }, true);
  const ids = engineCall(() => engine.filterIds(payload.filter), 'filter');
  return deleteIds(i, ids, { original_filter: payload.filter });
};

const updateSettings: TaskHandler = async ({ c, task, index, payload, rt }) => {
  const merged = mergeSettings({ ...defaultSettings(), ...settingsOf(index) }, payload.patch as IndexSettingsPatch, '');
  await run(c, `update ${T.indexes} set settings = $2 where id = $1`, [index.id, JSON.stringify(merged)]);
  return {
    details: { ...task.details },
    count: 0,
    webhook: { event: 'settings.updated', data: { task_id: String(task.uid), index_uid: index.uid, settings: task.details.settings ?? {} } },
    after: () => rt.engines.applySettings(index.id, previous(index), Number(task.id), merged),
  };
};

const deleteIndex: TaskHandler = async ({ c, task, index, rt }) => {
  const deleted = await deleteAllOfIndex(c, index.id);
  for (const table of [T.documentFields, T.snapshots, T.snapshotChunks, T.queries, T.events]) await run(c, `delete from ${table} where index_id = $1`, [index.id]);
  await run(c, `delete from ${T.indexes} where id = $1`, [index.id]);
  // every search process (this one included) drops its engine at commit
  await notifyIndexDropped(c, index.id);
  return {
    details: { ...task.details, deleted_documents: deleted },
    count: deleted,
    indexDeleted: true,
    webhook: { event: 'index.deleted', data: { task_id: String(task.uid), index_uid: index.uid, deleted_documents: deleted } },
    after: async () => rt.engines.drop(index.id),
  };
};

/** PATCH /indexes/{uid}: a primary key, changed only while the index holds no document (as Meilisearch). */
const updateIndex: TaskHandler = async ({ task, index, payload, rt }) => {
  const pk = payload.primary_key as string;
  if (index.primary_key !== pk && Number(index.number_of_documents) > 0) {
    throw new DomainError(
      'index_primary_key_already_exists',
      `Index \`${index.uid}\` already has the primary key \`${index.primary_key}\` and holds documents; it cannot be changed to \`${pk}\`.`,
      { parameter: 'primaryKey' },
    );
  }
  return {
    details: { ...task.details },
    count: 0,
    primaryKey: pk,
    // the engine's version moves with the index's (nothing of it changes: a batch names its primary key)
    after: () => rt.engines.applyCommitted(index.id, previous(index), Number(task.id), () => 0),
  };
};

/** The handler of each task type the workers run. */
export const TASK_HANDLERS: TaskHandlers = {
  document_addition_or_update: addDocuments,
  document_deletion: deleteDocuments,
  document_deletion_by_filter: deleteByFilter,
  settings_update: updateSettings,
  index_deletion: deleteIndex,
  index_update: updateIndex,
};
