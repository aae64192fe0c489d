// Per-request loaders of the blocks aggregate, declared on the request's `ctx.loaders` like every
// aggregate's (block.module.ts). Rows pass through the platform filter.
import DataLoader from 'dataloader';
import { groupRows, rowLoader } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    blockById: DataLoader<string, BlockEntity | null>;
    /** licenses of an account, block populated, in catalog order */
    licensesByAccount: DataLoader<string, BlockLicenseEntity[]>;
    /** instances of an app, block populated, in catalog order */
    instancesByApp: DataLoader<string, BlockInstanceEntity[]>;
    /** ids of the apps a license is provisioned to */
    appIdsByLicense: DataLoader<string, string[]>;
  }
}

type Own = Pick<PlatformContext['loaders'], 'blockById' | 'licensesByAccount' | 'instancesByApp' | 'appIdsByLicense'>;

export function blockLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  return {
    blockById: rowLoader(em, BlockEntity, 'id'),
    licensesByAccount: new DataLoader(async (accountIds) =>
      groupRows(
        accountIds,
        await em.find(BlockLicenseEntity, { account: { $in: [...accountIds] } }, { populate: ['block'], orderBy: { block: { position: 'asc' } } }),
        (r) => r.account.id,
      ),
    ),
    instancesByApp: new DataLoader(async (appIds) =>
      groupRows(appIds, await em.find(BlockInstanceEntity, { app: { $in: [...appIds] } }, { populate: ['block'], orderBy: { block: { position: 'asc' } } }), (r) => r.app.id),
    ),
    appIdsByLicense: new DataLoader(async (licenseIds) =>
      groupRows(licenseIds, await em.find(BlockInstanceEntity, { license: { $in: [...licenseIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.license.id).map((rows) =>
        rows.map((r) => r.app.id),
      ),
    ),
  };
}
