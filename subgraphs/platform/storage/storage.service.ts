// Object storage of an account: a prefix (the account id) in the process's ObjectStore, recorded
// once. Provisioning is idempotent: the second POST answers the store the first one made.
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { uniqueConstraintOf } from '../validation.js';
import { AccountStorageEntity } from './account-storage.entity.js';

/** The key of `key` inside the account's store. */
export function accountObjectKey(accountId: string, key: string): string {
  return `${accountId}/${key}`;
}

/** The account's store, provisioned on first use. */
export async function ensureStorage(ctx: PlatformContext, account: AccountEntity): Promise<AccountStorageEntity> {
  const existing = await ctx.em.findOne(AccountStorageEntity, { account: account.id });
  if (existing) return existing;
  const objects = ctx.runtime.objects;
  await objects.ensurePrefix(account.id); // before the row: a row always means a usable store
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const row = tx.em.create(AccountStorageEntity, {
        platform: tx.em.getReference(PlatformEntity, account.platform.id),
        account: tx.em.getReference(AccountEntity, account.id),
        backend: objects.backend,
        prefix: account.id,
      });
      await recordAccountEvent(tx, {
        account,
        event: 'storage.provisioned',
        data: { storage_id: row.id, backend: row.backend },
        summary: `${account.name}: object storage provisioned (${row.backend})`,
      });
      return row;
    });
  } catch (e) {
    // a concurrent first provisioning won: answer its row
    if (uniqueConstraintOf(e) === undefined) throw e;
    return (await ctx.em.fork().findOneOrFail(AccountStorageEntity, { account: account.id }));
  }
}

export async function provisionStorage(ctx: PlatformContext, accountUrlId: string): Promise<{ row: AccountStorageEntity; location: string }> {
  const account = await getAccount(ctx, accountUrlId);
  const row = await ensureStorage(ctx, account);
  return { row, location: ctx.runtime.objects.locationOf(row.prefix) };
}
