import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { CreateDataTransferInput } from './data-transfer.inputs.js';
import { DataTransfer, DataTransferAuditEntry, toAuditEntry, toDataTransfer } from './data-transfer.type.js';
import * as transfers from './data-transfer.service.js';

/** Admin side: platform:admin only (the audit trail and recipients are sensitive). */
@Resolver(() => DataTransfer)
export class DataTransferResolver {
  @Authorized('platform:admin')
  @Mutation(() => DataTransfer, { description: 'Create a data transfer for the account; share its code with the recipient' })
  async createDataTransfer(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => CreateDataTransferInput) input: CreateDataTransferInput,
  ): Promise<DataTransfer> {
    return toDataTransfer(await transfers.createTransfer(ctx, accountUrlId, input));
  }

  @Authorized('platform:admin')
  @Query(() => [DataTransfer], { description: "The account's data transfers, newest first" })
  async dataTransfers(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<DataTransfer[]> {
    return (await transfers.listTransfers(ctx, accountUrlId)).map(toDataTransfer);
  }

  @Authorized('platform:admin')
  @Query(() => DataTransfer)
  async accountDataTransfer(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('code') code: string): Promise<DataTransfer> {
    return toDataTransfer(await transfers.getTransfer(ctx, accountUrlId, code));
  }

  @Authorized('platform:admin')
  @Query(() => [DataTransferAuditEntry], { description: 'The append-only audit trail of the transfer, oldest first' })
  async dataTransferAudit(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('code') code: string): Promise<DataTransferAuditEntry[]> {
    return (await transfers.transferAudit(ctx, accountUrlId, code)).map(toAuditEntry);
  }
}
