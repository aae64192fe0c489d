import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { PlatformContext } from '../context.js';
import { DataTransferAccess, DataTransferAccessRequest, DataTransferAuditEntry, PublicDataTransfer, toAuditEntry, toPublicDataTransfer } from './data-transfer.type.js';
import * as flow from './data-transfer-public.service.js';

/**
 * Public side: no @Authorized on purpose. Anyone holding a transfer code may use these fields
 * (anonymous callers included); the code scopes every query, and accept / decline / events
 * also need the access token that a verified access code yields.
 */
@Resolver(() => PublicDataTransfer)
export class DataTransferPublicResolver {
  @Query(() => PublicDataTransfer, { description: 'Public: details of the transfer (no secrets); DATA_TRANSFER_EXPIRED (410) once expired' })
  async publicDataTransfer(@Ctx() ctx: PlatformContext, @Arg('code') code: string): Promise<PublicDataTransfer> {
    return toPublicDataTransfer(await flow.showTransfer(ctx, code));
  }

  @Mutation(() => DataTransferAccessRequest, { description: 'Public: issue a one-time access code to the recipient (at most 5 per hour)' })
  async requestDataTransferAccess(@Ctx() ctx: PlatformContext, @Arg('code') code: string): Promise<DataTransferAccessRequest> {
    return Object.assign(new DataTransferAccessRequest(), await flow.requestAccess(ctx, code));
  }

  @Mutation(() => DataTransferAccess, { description: 'Public: trade the access code for an access token (30 minutes)' })
  async verifyDataTransferAccess(@Ctx() ctx: PlatformContext, @Arg('code') code: string, @Arg('accessCode') accessCode: string): Promise<DataTransferAccess> {
    return Object.assign(new DataTransferAccess(), await flow.verifyAccess(ctx, code, accessCode));
  }

  @Mutation(() => PublicDataTransfer, { description: 'Public, verified access: accept the agreement (once; 409 after)' })
  async acceptDataTransfer(@Ctx() ctx: PlatformContext, @Arg('code') code: string, @Arg('accessToken') accessToken: string): Promise<PublicDataTransfer> {
    return toPublicDataTransfer(await flow.acceptTransfer(ctx, code, accessToken));
  }

  @Mutation(() => PublicDataTransfer, { description: 'Public, verified access: decline the agreement (once; 409 after)' })
  async declineDataTransfer(
    @Ctx() ctx: PlatformContext,
    @Arg('code') code: string,
    @Arg('accessToken') accessToken: string,
    @Arg('reason', { nullable: true }) reason?: string,
  ): Promise<PublicDataTransfer> {
    return toPublicDataTransfer(await flow.declineTransfer(ctx, code, accessToken, reason));
  }

  @Mutation(() => DataTransferAuditEntry, { description: 'Public, verified access: record viewed, downloaded (after acceptance), printed, shared or other' })
  async recordDataTransferEvent(
    @Ctx() ctx: PlatformContext,
    @Arg('code') code: string,
    @Arg('accessToken') accessToken: string,
    @Arg('eventType') eventType: string,
    @Arg('detail', () => GraphQLJSONObject, { nullable: true }) detail?: Record<string, unknown>,
  ): Promise<DataTransferAuditEntry> {
    return toAuditEntry(await flow.recordTransferEvent(ctx, code, accessToken, eventType, detail));
  }
}
