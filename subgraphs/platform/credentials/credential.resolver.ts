import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { CreateAccountCredentialInput, UpdateAccountCredentialInput } from './credential.inputs.js';
import { AccountCredential, toCredential } from './credential.type.js';
import * as credentials from './credential.service.js';

@Resolver(() => AccountCredential)
export class CredentialResolver {
  @Authorized('platform:read')
  @Query(() => [AccountCredential], { description: 'Third-party and cloud credentials of the account; secrets masked' })
  async accountCredentials(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<AccountCredential[]> {
    return (await credentials.listCredentials(ctx, accountUrlId)).map(toCredential);
  }

  @Authorized('platform:read')
  @Query(() => AccountCredential)
  async accountCredential(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountCredential> {
    return toCredential(await credentials.getCredential(ctx, accountUrlId, id));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountCredential, { description: 'The secret is encrypted at rest and never returned, not even here' })
  async createAccountCredential(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => CreateAccountCredentialInput) input: CreateAccountCredentialInput,
  ): Promise<AccountCredential> {
    return toCredential(await credentials.createCredential(ctx, accountUrlId, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountCredential)
  async updateAccountCredential(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAccountCredentialInput) input: UpdateAccountCredentialInput,
  ): Promise<AccountCredential> {
    return toCredential(await credentials.updateCredential(ctx, accountUrlId, id, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountCredential, { description: 'Deletes the credential for good; returns it as it was' })
  async deleteAccountCredential(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountCredential> {
    return toCredential(await credentials.deleteCredential(ctx, accountUrlId, id));
  }
}
