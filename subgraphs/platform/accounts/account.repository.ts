// The account query that crosses platforms, so it switches the platform filter off and states the
// platform predicate itself: the operator's global list. (The emptiness check before a platform is
// deleted is the liveAccountCountByPlatform loader.)
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity } from './account.entity.js';

export interface GlobalAccountQuery {
  page: number;
  pageSize: number;
  /** the platforms the caller operates (platforms/platform-access.ts); null: every platform (super-admin) */
  platformIds: string[] | null;
  includeDeleted: boolean;
}

/** Accounts of every live platform (or of the given ones), newest first, one page, with the total. */
export async function findGlobalAccounts(em: EntityManager, q: GlobalAccountQuery): Promise<{ items: AccountEntity[]; total: number }> {
  const where = {
    ...(q.includeDeleted ? {} : { deletedAt: null }),
    platform: { deletedAt: null, ...(q.platformIds ? { id: { $in: q.platformIds } } : {}) },
  };
  const [items, total] = await em.findAndCount(AccountEntity, where, {
    filters: false,
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  });
  return { items, total };
}
