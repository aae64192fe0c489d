import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { StoredUploadInput } from '../../../lib/stored-upload.js';
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

  /** Public: the signed token and the bridge's receipt are the credentials. Called by the REST bridge for PUT /uploads/:token. */
  @Mutation(() => UploadedObject, { description: 'Record a logo upload the REST bridge streamed into the object store (checked: token, receipt, stored size)' })
  async recordLogoUpload(@Ctx() ctx: PlatformContext, @Arg('token') token: string, @Arg('object') object: StoredUploadInput): Promise<UploadedObject> {
    return Object.assign(new UploadedObject(), await logos.recordLogoUpload(ctx, token, object));
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
