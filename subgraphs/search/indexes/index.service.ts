// Indexes: create (synchronous, recorded as a succeeded index_creation task), read, delete and
// settings changes (tasks). Every method takes the request context first.
import type pg from 'pg';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { SearchContext } from '../context.js';
import { one, onePrepared, withTx } from '../db.js';
import { T } from '../sql.js';
import { defaultSuggestionSettings, mergeSuggestionSettings, type SuggestionSettingsData } from './suggestion-settings.rules.js';
import { insertFinishedTask, type TaskRow } from '../tasks/task.queue.js';
import { publishAfterCommit } from '../../../lib/events.js';
import { publishTaskEvent } from '../tasks/task.events.js';
import { enqueue } from '../tasks/task.service.js';
import { planLimits } from '../tenancy.js';
import { queueWebhookEvent } from '../webhooks/webhook.events.js';
import { IndexEntity } from './index.entity.js';
import { searchTopics, type IndexEventPayload } from './index.events.js';
import type { CreateIndexInput } from './index.inputs.js';
import { defaultSettings, mergeSettings, parseSettingsPatch, type IndexSettingsData, type IndexSettingsPatch } from './index-settings.rules.js';
import { recordFromRow, type IndexRecord } from './index.type.js';
import { appPartition } from '../../../lib/tenant-entity.js';

// Meilisearch's rules, so clients moving from it see the same accept/refuse decisions.
const INDEX_UID = /^[A-Za-z0-9_-]{1,400}$/;
const PRIMARY_KEY = /^[A-Za-z0-9_-]{1,512}$/;

export function validatePrimaryKey(primaryKey: string | undefined | null, parameter = 'primaryKey'): string | undefined {
  if (primaryKey === undefined || primaryKey === null) return undefined;
  if (!PRIMARY_KEY.test(primaryKey)) {
    throw new DomainError(
      'invalid_primary_key',
      `\`${primaryKey}\` is not a valid primary key. It may contain only alphanumeric characters, hyphens (-) and underscores (_), 1 to 512 characters.`,
      { parameter },
    );
  }
  return primaryKey;
}

/** The partition's index-name lock (until commit): creations and renames of its indexes go one at a time. */
export async function lockIndexNames(c: pg.PoolClient, appId: string, environment: string): Promise<void> {
  await c.query('select pg_advisory_xact_lock(hashtext($1))', [`search.indexes:${appId}:${environment}`]);
}

export async function createIndex(ctx: SearchContext, input: CreateIndexInput): Promise<{ index: IndexRecord; task: TaskRow }> {
  const { appId, environment } = await appPartition(ctx);
  const uid = validateUid(input.uid);
  const primaryKey = validatePrimaryKey(input.primaryKey);
  const settings = mergeSettings(defaultSettings(), parseSettingsPatch(input.settings));
  const limits = planLimits(ctx);
  const rt = ctx.runtime;
  const { row, task } = await withTx(rt.pool, async (c) => {
    // One creator at a time per partition, so "fewer than N indexes" holds under concurrency.
    await lockIndexNames(c, appId, environment);
    const taken = await one(c, `select 1 from ${T.indexes} where app_id = $1 and environment = $2 and uid = $3`, [appId, environment, uid]);
    if (taken) throw new DomainError('index_already_exists', `Index \`${uid}\` already exists.`, { parameter: 'uid' });
    if (limits.indexes !== null) {
      const n = await one<{ n: string }>(c, `select count(*) as n from ${T.indexes} where app_id = $1 and environment = $2`, [appId, environment]);
      if (Number(n!.n) >= limits.indexes) {
        throw new DomainError('index_limit_exceeded', `The ${limits.plan} plan allows ${limits.indexes} indexes; delete one or change plan.`, { parameter: 'uid' });
      }
    }
    const row = await one(
      c,
      `insert into ${T.indexes} (id, app_id, environment, uid, primary_key, settings, number_of_documents, is_indexing, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, 0, false, clock_timestamp(), clock_timestamp()) returning *`,
      [newId('idx'), appId, environment, uid, primaryKey ?? null, JSON.stringify(settings)],
    );
    const task = await insertFinishedTask(c, { appId, environment, indexId: row!.id, indexUid: uid, type: 'index_creation', details: { primary_key: primaryKey ?? null } });
    await queueWebhookEvent(c, { appId, environment }, 'index.created', { index_uid: uid, primary_key: primaryKey ?? null, task_id: String(task.uid) });
    return { row: row!, task };
  });
  // After commit: subscribers never hear of an index that was rolled back.
  const index = recordFromRow(row);
  await publish(ctx, 'index.created', index);
  await publishTaskEvent(rt, task, 'task.succeeded');
  rt.wakeDispatcher();
  return { index, task };
}

/** An index of the caller's partition by uid; index_not_found otherwise (other tenants' too). */
export async function getIndex(ctx: SearchContext, uid: string): Promise<IndexEntity> {
  const index = typeof uid === 'string' && INDEX_UID.test(uid) ? await ctx.loaders.indexByUid.load(uid) : null;
  if (!index) throw new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: 'indexUid' });
  return index;
}

/** What a search reads of its index: the engine's version and settings, the uid and primary key. */
export interface SearchableIndex {
  id: string;
  uid: string;
  primaryKey: string | null;
  settings: IndexSettingsData;
  appliedTaskId: number;
  purgedThroughTaskId: number;
  numberOfDocuments: number;
}

const SEARCHABLE_INDEX_SQL = `select id, uid, primary_key, settings, applied_task_id, purged_through_task_id, number_of_documents from ${T.indexes} where app_id = $1 and environment = $2 and uid = $3`;

/**
 * getIndex for the search path: one plain statement on the service's pool (prepared once per
 * connection), with the partition as explicit predicates (tenantParams), instead of an ORM find —
 * a search only reads the row, so hydrating an entity into the identity map was pure overhead on
 * every search (docs/search.md, "End-to-end path").
 */
export async function getSearchableIndex(ctx: SearchContext, uid: string): Promise<SearchableIndex> {
  const row =
    typeof uid === 'string' && INDEX_UID.test(uid)
      ? await (async () => {
          const { appId, environment } = await appPartition(ctx);
          return onePrepared<{
            id: string;
            uid: string;
            primary_key: string | null;
            settings: IndexSettingsData;
            applied_task_id: string;
            purged_through_task_id: string;
            number_of_documents: number;
          }>(
            ctx.runtime.pool,
            'search.searchable-index',
            SEARCHABLE_INDEX_SQL,
            [appId, environment, uid],
            ctx.runtime.namedStatements,
          );
        })()
      : undefined;
  if (!row) throw new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: 'indexUid' });
  return {
    id: row.id,
    uid: row.uid,
    primaryKey: row.primary_key,
    settings: row.settings,
    appliedTaskId: Number(row.applied_task_id),
    purgedThroughTaskId: Number(row.purged_through_task_id),
    numberOfDocuments: Number(row.number_of_documents),
  };
}

/** All indexes of the caller's partition, ordered by uid (byte-wise, as the column's collation). */
export async function listIndexes(ctx: SearchContext): Promise<IndexEntity[]> {
  const { appId } = await appPartition(ctx);
  return ctx.loaders.indexesByApp.load(appId);
}

/** Indexes one page of the list holds at most (and by default): a partition may hold thousands. */
export const MAX_INDEX_PAGE = 1000;

function pageArg(value: number | null | undefined, parameter: string, fallback: number, min: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) throw new DomainError('BAD_REQUEST', `${parameter} must be an integer from ${min} to ${max}`, { parameter });
  return v;
}

/** One page of the caller's indexes by uid (Meilisearch's offset and limit), and how many there are. */
export async function listIndexPage(ctx: SearchContext, offset?: number | null, limit?: number | null): Promise<{ indexes: IndexEntity[]; total: number }> {
  const from = pageArg(offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const size = pageArg(limit, 'limit', MAX_INDEX_PAGE, 1, MAX_INDEX_PAGE);
  const { appId } = await appPartition(ctx);
  // the tenant filter limits both to the caller's app and environment
  const [indexes, total] = await Promise.all([ctx.em.find(IndexEntity, { appId }, { orderBy: { uid: 'asc' }, offset: from, limit: size }), countIndexes(ctx)]);
  return { indexes, total };
}

/** How many indexes the caller's partition holds. */
export async function countIndexes(ctx: SearchContext): Promise<number> {
  const { appId } = await appPartition(ctx);
  return ctx.em.count(IndexEntity, { appId });
}

export function validateUid(uid: string, parameter = 'uid'): string {
  if (typeof uid !== 'string' || !INDEX_UID.test(uid)) {
    throw new DomainError(
      'invalid_index_uid',
      `\`${String(uid).slice(0, 100)}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.`,
      { parameter },
    );
  }
  return uid;
}

/** Delete the index and its documents: a task (tasks enqueued before it still run first). */
export async function deleteIndex(ctx: SearchContext, uid: string): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  return enqueue(ctx, { indexId: index.id, indexUid: index.uid, type: 'index_deletion', details: {} });
}

/**
 * A settings change as a task. The patch is validated now (a bad value is a 4xx, not a failed
 * task) and merged over the settings current when the task runs.
 */
async function enqueueSettings(ctx: SearchContext, uid: string, patch: IndexSettingsPatch): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  mergeSettings({ ...defaultSettings(), ...index.settings }, patch, '');
  return enqueue(ctx, {
    indexId: index.id,
    indexUid: index.uid,
    type: 'settings_update',
    details: { settings: patch },
    payload: JSON.stringify({ patch }),
  });
}

export function updateSettings(ctx: SearchContext, uid: string, settings: Record<string, unknown>): Promise<TaskRow> {
  return enqueueSettings(ctx, uid, parseSettingsPatch(settings, ''));
}

/** Every setting back to its default (Meilisearch's DELETE /indexes/{uid}/settings): a settings task. */
export function resetSettings(ctx: SearchContext, uid: string): Promise<TaskRow> {
  return enqueueSettings(ctx, uid, parseSettingsPatch(Object.fromEntries(Object.keys(defaultSettings()).map((k) => [k, null])), ''));
}

/** PUT semantics: both objects are replaced; an omitted one becomes empty. */
export function updateSynonyms(ctx: SearchContext, uid: string, synonyms?: Record<string, unknown> | null, oneWay?: Record<string, unknown> | null): Promise<TaskRow> {
  return enqueueSettings(ctx, uid, parseSettingsPatch({ synonyms: synonyms ?? {}, one_way_synonyms: oneWay ?? {} }, ''));
}

export function updateStopWords(ctx: SearchContext, uid: string, stopWords: string[] | null): Promise<TaskRow> {
  if (stopWords == null) throw new DomainError('VALIDATION_FAILED', 'stop_words is required (an array, [] to clear)', { parameter: 'stopWords' });
  return enqueueSettings(ctx, uid, parseSettingsPatch({ stop_words: stopWords }, ''));
}

export function updateRankingRules(ctx: SearchContext, uid: string, rankingRules: string[] | null): Promise<TaskRow> {
  if (rankingRules == null) throw new DomainError('VALIDATION_FAILED', 'ranking_rules is required', { parameter: 'rankingRules' });
  return enqueueSettings(ctx, uid, parseSettingsPatch({ ranking_rules: rankingRules }, ''));
}

export async function getSynonyms(ctx: SearchContext, uid: string): Promise<Pick<IndexSettingsData, 'synonyms' | 'one_way_synonyms'>> {
  const s = { ...defaultSettings(), ...(await getIndex(ctx, uid)).settings };
  return { synonyms: s.synonyms, one_way_synonyms: s.one_way_synonyms };
}

/**
 * Suggestion settings change neither documents nor ranking, so they apply at once (no task):
 * one conditional update, with the settings.updated webhook in the same transaction.
 */
export async function updateSuggestionSettings(ctx: SearchContext, uid: string, patch: Record<string, unknown>): Promise<SuggestionSettingsData> {
  const index = await getIndex(ctx, uid);
  const merged = mergeSuggestionSettings(index.suggestionSettings ?? defaultSuggestionSettings(), patch);
  const rt = ctx.runtime;
  const updated = await withTx(rt.pool, async (c) => {
    const r = await one(c, `update ${T.indexes} set suggestion_settings = $2, updated_at = clock_timestamp() where id = $1 returning id`, [index.id, JSON.stringify(merged)]);
    if (r) await queueWebhookEvent(c, { appId: index.appId, environment: index.environment }, 'settings.updated', { index_uid: index.uid, suggestion_settings: merged });
    return !!r;
  });
  if (!updated) throw new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: 'indexUid' });
  rt.wakeDispatcher();
  return merged;
}

async function publish(ctx: SearchContext, event: IndexEventPayload['event'], index: IndexRecord): Promise<void> {
  const payload: IndexEventPayload = { event, occurredAt: new Date().toISOString(), indexUid: index.uid };
  await publishAfterCommit(ctx, searchTopics.searchEvents(index.appId, index.environment), payload, event);
}
