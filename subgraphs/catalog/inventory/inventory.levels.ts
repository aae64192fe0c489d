// The hook product and variant PATCHes call when they set `inventory.quantity` (the total): the
// levels keep adding up to it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { defaultLocation } from '../locations/location.service.js';
import { levelsOfItem, setLevel, type ItemRef } from './inventory.repository.js';

/**
 * A product or variant PATCH that sets `inventory.quantity` (the total) once levels exist: the
 * default location takes the difference, so the levels still add up to the total. Refused when
 * the other locations already hold more than the new total.
 */
export async function alignDefaultLevel(em: EntityManager, part: AppPartition, item: ItemRef, total: number): Promise<void> {
  const rows = await levelsOfItem(em, part, item);
  if (!rows.length) return;
  const loc = await defaultLocation(em, part);
  const others = rows.filter((r) => r.locationId !== loc.id).reduce((n, r) => n + r.quantity, 0);
  if (total < others) {
    throw new DomainError('VALIDATION_FAILED', `other locations hold ${others}; set per-location levels with PUT /inventory`, { parameter: 'inventory.quantity' });
  }
  await setLevel(em, part, item, loc.id, total - others);
}
