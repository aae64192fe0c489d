// Locations of an app partition: create (the first one, or one created with is_default, becomes the
// default; the previous default stops being it in the same transaction), list, and the default
// location every write without a location uses (created as "Default" / code "default" when the
// partition has none yet).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { lockPartition } from '../sql.js';
import { LocationEntity, type LocationAddress } from './location.entity.js';

export interface LocationInput {
  name: string;
  code: string;
  type?: string | null;
  address?: LocationAddress | null;
  isDefault?: boolean | null;
}

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TYPE = /^[a-z][a-z_]{0,31}$/;
const ADDRESS_MAX = 200;

function checkLocation(input: LocationInput): Omit<LocationEntity, 'id' | 'appId' | 'environment' | 'createdAt' | 'updatedAt'> {
  const name = input.name?.trim();
  if (!name || name.length > 200) throw new DomainError('VALIDATION_FAILED', 'name must be 1 to 200 characters', { parameter: 'name' });
  if (!CODE.test(input.code ?? '')) throw new DomainError('VALIDATION_FAILED', 'code must be 1 to 64 letters, digits, "_", "-" or "." (starting with a letter or digit)', { parameter: 'code' });
  const type = input.type ?? 'warehouse';
  if (!TYPE.test(type)) throw new DomainError('VALIDATION_FAILED', 'type must be lower-case letters and "_" (e.g. warehouse, store), at most 32', { parameter: 'type' });
  const address = input.address ?? null;
  for (const [k, v] of Object.entries(address ?? {})) {
    if (v != null && (typeof v !== 'string' || v.length > ADDRESS_MAX)) throw new DomainError('VALIDATION_FAILED', `address.${k} must be a string of at most ${ADDRESS_MAX} characters`, { parameter: `address.${k}` });
  }
  if (address?.country != null && !/^[A-Z]{2}$/.test(address.country)) throw new DomainError('VALIDATION_FAILED', 'address.country must be an ISO 3166-1 alpha-2 code (e.g. US)', { parameter: 'address.country' });
  return { name, code: input.code, type, address, isDefault: false };
}

export async function createLocation(ctx: CatalogContext, input: LocationInput): Promise<LocationEntity> {
  const values = checkLocation(input);
  const part = await appPartition(ctx);
  try {
    return await ctx.em.transactional(async (em) => {
      await lockPartition(em, 'inventory-locations', part.appId, part.environment);
      const current = await em.findOne(LocationEntity, { isDefault: true });
      const makeDefault = !current || !!input.isDefault;
      if (makeDefault && current) {
        current.isDefault = false;
        await em.flush();
      }
      const loc = em.create(LocationEntity, { ...part, ...values, isDefault: makeDefault });
      await em.flush();
      return loc;
    });
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw new DomainError('LOCATION_CODE_EXISTS', `Location code "${input.code}" is already in use`, { parameter: 'code' });
    throw e;
  }
}

export async function listLocations(ctx: CatalogContext): Promise<LocationEntity[]> {
  return ctx.em.find(LocationEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** A location of the partition by id; LOCATION_NOT_FOUND naming `parameter` otherwise. */
export async function locationsById(em: EntityManager, ids: string[], parameter: (i: number) => string): Promise<Map<string, LocationEntity>> {
  const rows = await em.find(LocationEntity, { id: { $in: ids } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  ids.forEach((id, i) => {
    if (!byId.has(id)) throw new DomainError('LOCATION_NOT_FOUND', `Location ${id} not found`, { parameter: parameter(i) });
  });
  return byId;
}

/** The partition's default location, created ("Default", code "default") when it has no location yet. */
export async function defaultLocation(em: EntityManager, part: AppPartition): Promise<LocationEntity> {
  const found = await em.findOne(LocationEntity, { isDefault: true });
  if (found) return found;
  await lockPartition(em, 'inventory-locations', part.appId, part.environment);
  const again = await em.findOne(LocationEntity, { isDefault: true }, { refresh: true });
  if (again) return again;
  const loc = em.create(LocationEntity, { ...part, name: 'Default', code: 'default', type: 'warehouse', isDefault: true });
  await em.flush();
  return loc;
}
