import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { Account } from '../accounts/account.type.js';
import { App } from '../apps/app.type.js';
import { BlockRefInput, LicenseBlockInput } from './block.inputs.js';
import { Block, BlockInstance, BlockLicense, LicenseBlockResult, ProvisionBlockResult, toBlock, toBlockInstance, toBlockLicense } from './block.type.js';
import * as blocks from './block.service.js';

@Resolver(() => Block)
export class BlockResolver {
  @Authorized('platform:read')
  @Query(() => [Block], { description: 'The block catalog (17 blocks), in catalog order' })
  async blocks(@Ctx() ctx: PlatformContext): Promise<Block[]> {
    return (await blocks.listBlocks(ctx)).map(toBlock);
  }

  @Authorized('platform:read')
  @Query(() => [BlockLicense], { description: 'Blocks licensed to an account' })
  async accountBlocks(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<BlockLicense[]> {
    return (await blocks.listLicenses(ctx, accountUrlId)).map((r) => toBlockLicense(r.license, r.block, r.appIds));
  }

  @Authorized('platform:read')
  @Query(() => [BlockInstance], { description: 'Blocks provisioned to an app' })
  async appBlocks(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<BlockInstance[]> {
    return (await blocks.listInstances(ctx, accountUrlId, appId)).map((r) => toBlockInstance(r.instance, r.block));
  }

  @Authorized('platform:manage')
  @Mutation(() => LicenseBlockResult, { description: 'License a block to an account (idempotent: created is false when it already was)' })
  async licenseBlock(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => LicenseBlockInput) input: LicenseBlockInput,
  ): Promise<LicenseBlockResult> {
    const r = await blocks.licenseBlock(ctx, accountUrlId, input.blockUniqueId, input.extraAttributes);
    return Object.assign(new LicenseBlockResult(), { license: toBlockLicense(r.license, r.block, r.appIds), created: r.created });
  }

  @Authorized('platform:manage')
  @Mutation(() => BlockLicense, { description: 'Remove a license (id: license id or block unique_id); BLOCK_STILL_PROVISIONED while apps have it' })
  async removeBlockLicense(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<BlockLicense> {
    const r = await blocks.removeLicense(ctx, accountUrlId, id);
    return toBlockLicense(r.license, r.block, r.appIds);
  }

  @Authorized('platform:manage')
  @Mutation(() => ProvisionBlockResult, { description: 'Provision a licensed block to an app (idempotent); BLOCK_NOT_LICENSED otherwise' })
  async provisionBlock(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('input', () => BlockRefInput) input: BlockRefInput,
  ): Promise<ProvisionBlockResult> {
    const r = await blocks.provisionBlock(ctx, accountUrlId, appId, input.blockUniqueId);
    return Object.assign(new ProvisionBlockResult(), { instance: toBlockInstance(r.instance, r.block), created: r.created });
  }

  @Authorized('platform:manage')
  @Mutation(() => BlockInstance, { description: 'Deprovision a block from an app (blockId: block unique_id or instance id)' })
  async deprovisionBlock(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('blockId', () => ID) blockId: string,
  ): Promise<BlockInstance> {
    const r = await blocks.deprovisionBlock(ctx, accountUrlId, appId, blockId);
    return toBlockInstance(r.instance, r.block);
  }
}

/** Account.blockLicenses: batched per request (block.loaders.ts, on ctx.loaders). */
@Resolver(() => Account)
export class AccountBlocksResolver {
  @Authorized('platform:read')
  @FieldResolver(() => [BlockLicense], { description: 'Blocks licensed to the account' })
  async blockLicenses(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<BlockLicense[]> {
    const loaders = ctx.loaders;
    const licenses = await loaders.licensesByAccount.load(account.id);
    const appIds = await Promise.all(licenses.map((l) => loaders.appIdsByLicense.load(l.id)));
    return licenses.map((l, i) => toBlockLicense(l, l.block, appIds[i]));
  }
}

/** App.blocks: batched per request. */
@Resolver(() => App)
export class AppBlocksResolver {
  @Authorized('platform:read')
  @FieldResolver(() => [BlockInstance], { description: 'Blocks provisioned to the app' })
  async blocks(@Root() app: App, @Ctx() ctx: PlatformContext): Promise<BlockInstance[]> {
    return (await ctx.loaders.instancesByApp.load(app.id)).map((i) => toBlockInstance(i, i.block));
  }
}
