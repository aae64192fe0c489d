// Per-request DataLoaders of the blocks aggregate. Kept here rather than in ../context.ts so this
// aggregate stays self-contained: they hang off the request's loaders object (a WeakMap entry), so
// they live exactly as long as the request. Rows pass through the platform filter.
import DataLoader from 'dataloader';
import type { PlatformContext } from '../context.js';
import { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';

export interface BlockLoaders {
  blockById: DataLoader<string, BlockEntity | null>;
  /** licenses of an account, block populated, in catalog order */
  licensesByAccount: DataLoader<string, BlockLicenseEntity[]>;
  /** instances of an app, block populated, in catalog order */
  instancesByApp: DataLoader<string, BlockInstanceEntity[]>;
  /** ids of the apps a license is provisioned to */
  appIdsByLicense: DataLoader<string, string[]>;
}

const perRequest = new WeakMap<object, BlockLoaders>();

function grouped<T>(keys: readonly string[], rows: T[], keyOf: (r: T) => string): T[][] {
  const m = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const r of rows) m.get(keyOf(r))?.push(r);
  return keys.map((k) => m.get(k)!);
}

export function blockLoaders(ctx: PlatformContext): BlockLoaders {
  let l = perRequest.get(ctx.loaders);
  if (l) return l;
  const { em } = ctx;
  l = {
    blockById: new DataLoader(async (ids) => {
      const rows = await em.find(BlockEntity, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    licensesByAccount: new DataLoader(async (accountIds) =>
      grouped(
        accountIds,
        await em.find(BlockLicenseEntity, { account: { $in: [...accountIds] } }, { populate: ['block'], orderBy: { block: { position: 'asc' } } }),
        (r) => r.account.id,
      ),
    ),
    instancesByApp: new DataLoader(async (appIds) =>
      grouped(
        appIds,
        await em.find(BlockInstanceEntity, { app: { $in: [...appIds] } }, { populate: ['block'], orderBy: { block: { position: 'asc' } } }),
        (r) => r.app.id,
      ),
    ),
    appIdsByLicense: new DataLoader(async (licenseIds) =>
      grouped(
        licenseIds,
        await em.find(BlockInstanceEntity, { license: { $in: [...licenseIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
        (r) => r.license.id,
      ).map((rows) => rows.map((r) => r.app.id)),
    ),
  };
  perRequest.set(ctx.loaders, l);
  return l;
}
