// One service per aggregate; every method takes the request context first.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '../../../lib/errors.js';
import type { Environment } from '../../../lib/tenant.js';
import type { SearchContext } from '../context.js';
import { IndexEntity } from './index.entity.js';
import { searchTopics, type IndexEventPayload } from './index.events.js';
import type { CreateIndexInput } from './index.inputs.js';
import { defaultSettings, mergeSettings, parseSettingsPatch } from './index-settings.rules.js';

// Meilisearch's rules, so clients moving from it see the same accept/refuse decisions.
const INDEX_UID = /^[A-Za-z0-9_-]{1,400}$/;
const PRIMARY_KEY = /^[A-Za-z0-9_-]{1,512}$/;

export async function createIndex(ctx: SearchContext, input: CreateIndexInput): Promise<IndexEntity> {
  const { appId, environment } = requireApp(ctx);
  const uid = validateUid(input.uid);
  const primaryKey = input.primaryKey ?? undefined;
  if (primaryKey !== undefined && !PRIMARY_KEY.test(primaryKey)) {
    throw new DomainError(
      'invalid_primary_key',
      `\`${primaryKey}\` is not a valid primary key. It may contain only alphanumeric characters, hyphens (-) and underscores (_), 1 to 512 characters.`,
      { parameter: 'primary_key' },
    );
  }
  const settings = mergeSettings(defaultSettings(), parseSettingsPatch(input.settings));
  const index = ctx.em.create(IndexEntity, { appId, environment, uid, primaryKey, settings });
  try {
    await ctx.em.flush();
  } catch (e) {
    // The unique constraint decides, so two concurrent creates of one uid yield exactly one index.
    if (e instanceof UniqueConstraintViolationException) {
      throw new DomainError('index_already_exists', `Index \`${uid}\` already exists.`, { parameter: 'uid' });
    }
    throw e;
  }
  // After commit: subscribers never hear of an index that was rolled back.
  await publish(ctx, 'index.created', index);
  return index;
}

/** An index of the caller's partition by uid; index_not_found otherwise (other tenants' too). */
export async function getIndex(ctx: SearchContext, uid: string): Promise<IndexEntity> {
  const index = INDEX_UID.test(uid) ? await ctx.loaders.indexByUid.load(uid) : null;
  if (!index) throw new DomainError('index_not_found', `Index \`${uid}\` not found.`, { parameter: 'index_uid' });
  return index;
}

/** All indexes of the caller's partition, ordered by uid (byte-wise, as the column's collation). */
export async function listIndexes(ctx: SearchContext): Promise<IndexEntity[]> {
  const { appId } = requireApp(ctx);
  return ctx.loaders.indexesByApp.load(appId);
}

export function validateUid(uid: string): string {
  if (typeof uid !== 'string' || !INDEX_UID.test(uid)) {
    throw new DomainError(
      'invalid_index_uid',
      `\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.`,
      { parameter: 'uid' },
    );
  }
  return uid;
}

function requireApp(ctx: SearchContext): { appId: string; environment: Environment } {
  const { appId, environment } = ctx.tenant;
  if (!appId || !environment) throw new DomainError('UNAUTHENTICATED', 'An API key (X-App-Id + X-Api-Key) is required');
  return { appId, environment };
}

async function publish(ctx: SearchContext, event: IndexEventPayload['event'], index: IndexEntity): Promise<void> {
  const payload: IndexEventPayload = { event, occurredAt: new Date().toISOString(), indexUid: index.uid };
  await ctx.pubsub.publish(searchTopics.searchEvents(index.appId, index.environment), payload);
}
