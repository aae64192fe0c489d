import { Arg, Authorized, Ctx, Directive, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { AddPlatformOperatorInput } from './platform-operator.inputs.js';
import { OperatorGrant, PlatformOperator, toPlatformOperator } from './platform-operator.type.js';
import * as operators from './platform-operator.service.js';

const PID = { description: "the platform's id, url_id or code" } as const;

@Resolver(() => PlatformOperator)
export class PlatformOperatorResolver {
  @Authorized('platform:read')
  @Query(() => [PlatformOperator], { description: 'Who may operate the platform, oldest first' })
  async platformOperators(@Ctx() ctx: PlatformContext, @Arg('platformId', () => ID, PID) platformId: string): Promise<PlatformOperator[]> {
    return (await operators.listOperators(ctx, platformId)).map(toPlatformOperator);
  }

  @Authorized('platform:admin')
  @Mutation(() => PlatformOperator, { description: 'OPERATOR_ALREADY_EXISTS (409) when the user already operates it' })
  async addPlatformOperator(
    @Ctx() ctx: PlatformContext,
    @Arg('platformId', () => ID, PID) platformId: string,
    @Arg('input', () => AddPlatformOperatorInput) input: AddPlatformOperatorInput,
  ): Promise<PlatformOperator> {
    return toPlatformOperator(await operators.addOperator(ctx, platformId, input));
  }

  @Authorized('platform:admin')
  @Mutation(() => PlatformOperator, { description: 'LAST_PLATFORM_ADMIN (409) for the last operator with platform:admin' })
  async removePlatformOperator(@Ctx() ctx: PlatformContext, @Arg('platformId', () => ID, PID) platformId: string, @Arg('userId') userId: string): Promise<PlatformOperator> {
    return toPlatformOperator(await operators.removeOperator(ctx, platformId, userId));
  }

  @Directive('@inaccessible')
  @Query(() => OperatorGrant, { nullable: true, description: 'Internal (gateway only)' })
  async _platformOperator(@Ctx() ctx: PlatformContext, @Arg('userId') userId: string, @Arg('platformCode') platformCode: string): Promise<OperatorGrant | null> {
    return operators.operatorGrant(ctx, userId, platformCode);
  }
}
