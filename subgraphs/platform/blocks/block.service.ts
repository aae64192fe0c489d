// The block catalog, block licenses (account) and block instances (app). Every account and app
// lookup goes through the account/app services, so the platform filter and soft delete apply and a
// foreign account or app is a 404 before any block logic runs.
//
// License and provision are idempotent: repeating one returns the existing record with created =
// false (REST: 200 instead of 201). Concurrent calls collapse into one row through the unique
// constraints (block.repository.ts), never through read-then-write.
//
// Each change that happens (not the idempotent repeats) records its account event (block.licensed,
// block.unlicensed, block.provisioned, block.deprovisioned) in the transaction of the change.
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import type { AccountEntity } from '../accounts/account.entity.js';
import type { AppEntity } from '../apps/app.entity.js';
import { getApp } from '../apps/app.service.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { requiredText } from '../validation.js';
import { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';
import { insertInstance, insertLicense } from './block.repository.js';

export interface LicenseRow {
  license: BlockLicenseEntity;
  block: BlockEntity;
  appIds: string[];
}

export interface InstanceRow {
  instance: BlockInstanceEntity;
  block: BlockEntity;
}

/** The catalog. Global, but like every platform path it needs an X-Platform the caller reaches. */
export async function listBlocks(ctx: PlatformContext): Promise<BlockEntity[]> {
  await ctx.loaders.scope.currentPlatform();
  return ctx.em.find(BlockEntity, {}, { orderBy: { position: 'asc', id: 'asc' } });
}

/** A catalog block by unique_id (blk_crm); BLOCK_NOT_FOUND (404) naming `parameter` otherwise. */
export async function getBlock(ctx: PlatformContext, uniqueId: string | undefined | null, parameter: string): Promise<BlockEntity> {
  const id = requiredText(uniqueId, parameter, 64);
  const block = await ctx.loaders.blockById.load(id);
  if (!block) throw new DomainError('BLOCK_NOT_FOUND', `No block "${id}" in the catalog (GET /blocks lists them, e.g. blk_crm)`, { parameter });
  return block;
}

export async function listLicenses(ctx: PlatformContext, accountUrlId: string): Promise<LicenseRow[]> {
  const account = await getAccount(ctx, accountUrlId);
  const loaders = ctx.loaders;
  const licenses = await loaders.licensesByAccount.load(account.id);
  const appIds = await Promise.all(licenses.map((l) => loaders.appIdsByLicense.load(l.id)));
  return licenses.map((license, i) => ({ license, block: license.block, appIds: appIds[i] }));
}

export async function licenseBlock(ctx: PlatformContext, accountUrlId: string, blockUniqueId: string, extraAttributes?: Record<string, unknown>): Promise<LicenseRow & { created: boolean }> {
  const account = await getAccount(ctx, accountUrlId);
  const block = await getBlock(ctx, blockUniqueId, 'blockUniqueId');
  const { created, license } = await withAccountEvents(ctx, async (tx) => {
    const created = await insertLicense(tx, {
      accountId: account.id,
      blockId: block.id,
      licensedBy: ctx.tenant.userId ?? null,
    });
    const license = await findLicense(tx, account, block.id);
    if (!license) throw new DomainError('CONFLICT', 'The license was removed while it was being created; retry');
    // attributes kept as given merge into the license, new or existing (licensing is idempotent)
    if (extraAttributes) {
      license.extraAttributes = mergeExtraAttributes(license.extraAttributes, extraAttributes);
      await tx.em.flush();
    }
    if (created) await recordAccountEvent(tx, { account, event: 'block.licensed', subject: { type: 'block_license', id: license.id }, data: licenseEventData(license, block) });
    return { created, license };
  });
  const appIds = created ? [] : await ctx.loaders.appIdsByLicense.load(license.id);
  return { license, block, appIds, created };
}

/**
 * Remove a license: `idOrBlock` is the license id (lic_...) or the block's unique_id (blk_crm).
 * Refused with BLOCK_STILL_PROVISIONED (409, naming the apps) while any app has the block; the
 * instances' foreign key makes PostgreSQL refuse too, should a provision race this removal.
 */
export async function removeLicense(ctx: PlatformContext, accountUrlId: string, idOrBlock: string): Promise<LicenseRow> {
  const account = await getAccount(ctx, accountUrlId);
  const license = await ctx.em.findOne(
    BlockLicenseEntity,
    { account, $or: [{ id: idOrBlock }, { block: idOrBlock }] },
    { populate: ['block'] },
  );
  if (!license) {
    throw new DomainError('BLOCK_LICENSE_NOT_FOUND', `No license "${idOrBlock}" on account ${accountUrlId}`, { parameter: 'licenseId' });
  }
  await refuseWhileProvisioned(ctx, license);
  let deleted: number;
  try {
    deleted = await withAccountEvents(ctx, async (tx) => {
      const n = await tx.em.nativeDelete(BlockLicenseEntity, { id: license.id });
      if (n) await recordAccountEvent(tx, { account, event: 'block.unlicensed', subject: { type: 'block_license', id: license.id }, data: licenseEventData(license, license.block) });
      return n;
    });
  } catch (e) {
    // outside the (rolled back) transaction: the check reads with the request's EntityManager
    if (e instanceof ForeignKeyConstraintViolationException) await refuseWhileProvisioned(ctx, license);
    throw e;
  }
  if (deleted === 0) throw new DomainError('BLOCK_LICENSE_NOT_FOUND', `No license "${idOrBlock}" on account ${accountUrlId}`, { parameter: 'licenseId' });
  return { license, block: license.block, appIds: [] };
}

async function refuseWhileProvisioned(ctx: PlatformContext, license: BlockLicenseEntity): Promise<void> {
  const instances = await ctx.em.find(BlockInstanceEntity, { license: license.id }, { populate: ['app'], orderBy: { createdAt: 'asc' }, refresh: true });
  if (instances.length === 0) return;
  const apps = instances.map((i) => ({ id: i.app.id, name: i.app.name }));
  throw new DomainError(
    'BLOCK_STILL_PROVISIONED',
    `Block ${license.block.name} (${license.block.id}) is still provisioned to ${apps.map((a) => `${a.id} (${a.name})`).join(', ')}: deprovision it from these apps first`,
    { parameter: 'licenseId', meta: { apps } },
  );
}

export async function listInstances(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<InstanceRow[]> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  return (await ctx.loaders.instancesByApp.load(app.id)).map((instance) => ({ instance, block: instance.block }));
}

export async function provisionBlock(
  ctx: PlatformContext,
  accountUrlId: string,
  appId: string,
  blockUniqueId: string,
): Promise<InstanceRow & { created: boolean }> {
  const { account, app } = await getApp(ctx, accountUrlId, appId);
  const block = await getBlock(ctx, blockUniqueId, 'blockUniqueId');
  const notLicensed = () =>
    new DomainError(
      'BLOCK_NOT_LICENSED',
      `Block ${block.name} (${block.id}) is not licensed to account ${account.urlId}: license it first (POST /accounts/${account.urlId}/blocks)`,
      { parameter: 'blockUniqueId' },
    );
  const license = await findLicense(ctx, account, block.id);
  if (!license) throw notLicensed();
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const created = await insertInstance(tx, {
        accountId: account.id,
        appId: app.id,
        blockId: block.id,
        licenseId: license.id,
        provisionedBy: ctx.tenant.userId ?? null,
      });
      const instance = await tx.em.findOne(BlockInstanceEntity, { app, block: block.id }, { populate: ['block'] });
      if (!instance) throw new DomainError('CONFLICT', 'The block was deprovisioned while it was being provisioned; retry');
      if (created) await recordAccountEvent(tx, { account, event: 'block.provisioned', subject: { type: 'block_instance', id: instance.id }, data: instanceEventData(instance, block, app) });
      return { instance, block, created };
    });
  } catch (e) {
    // the license was removed between the lookup and the insert
    if (e instanceof ForeignKeyConstraintViolationException) throw notLicensed();
    throw e;
  }
}

/** Deprovision: `idOrBlock` is the block's unique_id (blk_crm) or the instance id (bki_...). */
export async function deprovisionBlock(ctx: PlatformContext, accountUrlId: string, appId: string, idOrBlock: string): Promise<InstanceRow> {
  const { account, app } = await getApp(ctx, accountUrlId, appId);
  const instance = await ctx.em.findOne(BlockInstanceEntity, { app, $or: [{ id: idOrBlock }, { block: idOrBlock }] }, { populate: ['block'] });
  const missing = () => new DomainError('BLOCK_NOT_PROVISIONED', `Block "${idOrBlock}" is not provisioned to app ${app.id}`, { parameter: 'blockId' });
  if (!instance) throw missing();
  await withAccountEvents(ctx, async (tx) => {
    if ((await tx.em.nativeDelete(BlockInstanceEntity, { id: instance.id })) === 0) throw missing();
    await recordAccountEvent(tx, { account, event: 'block.deprovisioned', subject: { type: 'block_instance', id: instance.id }, data: instanceEventData(instance, instance.block, app) });
  });
  return { instance, block: instance.block };
}

function licenseEventData(license: BlockLicenseEntity, block: BlockEntity): Record<string, unknown> {
  return { license_id: license.id, block_unique_id: block.id, block_code: block.code, block_name: block.name };
}

function instanceEventData(instance: BlockInstanceEntity, block: BlockEntity, app: AppEntity): Record<string, unknown> {
  return { instance_id: instance.id, app_id: app.id, app_name: app.name, license_id: instance.license.id, block_unique_id: block.id, block_code: block.code, block_name: block.name };
}

function findLicense(ctx: PlatformContext, account: AccountEntity, blockId: string): Promise<BlockLicenseEntity | null> {
  return ctx.em.findOne(BlockLicenseEntity, { account, block: blockId }, { populate: ['block'], refresh: true });
}
