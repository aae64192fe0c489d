import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { CreateAccountExchangeInput, UpdateAccountExchangeInput } from './exchange.inputs.js';
import { AccountExchange, toExchange } from './exchange.type.js';
import * as exchanges from './exchange.service.js';

@Resolver(() => AccountExchange)
export class ExchangeResolver {
  @Authorized('platform:read')
  @Query(() => [AccountExchange], { description: 'Message-broker configurations of the account; passwords masked' })
  async accountExchanges(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<AccountExchange[]> {
    return (await exchanges.listExchanges(ctx, accountUrlId)).map(toExchange);
  }

  @Authorized('platform:read')
  @Query(() => AccountExchange)
  async accountExchange(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountExchange> {
    return toExchange(await exchanges.getExchange(ctx, accountUrlId, id));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountExchange)
  async createAccountExchange(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => CreateAccountExchangeInput) input: CreateAccountExchangeInput,
  ): Promise<AccountExchange> {
    return toExchange(await exchanges.createExchange(ctx, accountUrlId, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountExchange)
  async updateAccountExchange(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAccountExchangeInput) input: UpdateAccountExchangeInput,
  ): Promise<AccountExchange> {
    return toExchange(await exchanges.updateExchange(ctx, accountUrlId, id, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountExchange, { description: 'Deletes the configuration; returns it as it was' })
  async deleteAccountExchange(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountExchange> {
    return toExchange(await exchanges.deleteExchange(ctx, accountUrlId, id));
  }
}
