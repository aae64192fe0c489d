import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { AccountLogo } from '../account-details/account-details.type.js';
import { AccountStorage, LogoFile, toStorage, UploadedObject, UploadGrant } from './storage.type.js';
import * as logos from './logo.service.js';
import * as storage from './storage.service.js';

@Resolver()
export class StorageResolver {
  @Authorized('platform:manage')
  @Mutation(() => AccountStorage, { description: 'Provision the account object store (idempotent: answers the existing store)' })
  async provisionAccountStorage(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<AccountStorage> {
    const r = await storage.provisionStorage(ctx, accountUrlId);
    return toStorage(r.row, r.location);
  }

  @Authorized('platform:manage')
  @Mutation(() => UploadGrant, { description: 'A signed upload URL for a logo, valid 15 minutes, up to 10 MiB (or contentLength)' })
  async presignAccountLogo(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('contentLength', () => Int, { nullable: true }) contentLength?: number,
  ): Promise<UploadGrant> {
    return Object.assign(new UploadGrant(), await logos.presignLogo(ctx, accountUrlId, contentLength));
  }

  /** Public: the signed token is the credential. Called by the REST bridge for PUT /uploads/:token. */
  @Mutation(() => UploadedObject, { description: 'One chunk (base64, at most 512 KiB raw) of a presigned upload, in order; final assembles the object' })
  async uploadChunk(
    @Ctx() ctx: PlatformContext,
    @Arg('token') token: string,
    @Arg('index', () => Int) index: number,
    @Arg('data') data: string,
    @Arg('final') final: boolean,
    @Arg('totalBytes', () => Int, { nullable: true }) totalBytes?: number,
    @Arg('sha256', { nullable: true }) sha256?: string,
  ): Promise<UploadedObject> {
    return Object.assign(new UploadedObject(), await logos.putUploadChunk(ctx, { token, index, data, final, totalBytes, sha256 }));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountLogo, { description: 'Check the upload is a PNG, JPEG, GIF or WebP image and make it the account logo' })
  async publishAccountLogo(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('uploadId', () => ID) uploadId: string): Promise<AccountLogo> {
    return Object.assign(new AccountLogo(), await logos.publishLogo(ctx, accountUrlId, uploadId));
  }

  /** Public: published logos are public images. */
  @Query(() => LogoFile, { description: "The account's current logo file (public)" })
  async accountLogoFile(@Ctx() ctx: PlatformContext, @Arg('accountId', () => ID) accountId: string, @Arg('file') file: string): Promise<LogoFile> {
    return Object.assign(new LogoFile(), await logos.logoFile(ctx, accountId, file));
  }
}
