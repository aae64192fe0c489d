import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { Account, toAccount } from '../accounts/account.type.js';
import { ChangeSubscriptionPlanInput, CreateSubscriptionInput } from './subscription.inputs.js';
import { SubscriptionModel, toSubscriptionModel } from './subscription-model.type.js';
import { AccountSubscription, toSubscription } from './subscription.type.js';
import * as subscriptions from './subscription.service.js';

@Resolver(() => AccountSubscription)
export class SubscriptionResolver {
  @Authorized('platform:read')
  @Query(() => [SubscriptionModel], { description: 'The plan catalog (Free, Starter, Growth, Enterprise)' })
  async subscriptionModels(@Ctx() ctx: PlatformContext): Promise<SubscriptionModel[]> {
    return (await subscriptions.listModels(ctx)).map(toSubscriptionModel);
  }

  @Authorized('platform:read')
  @Query(() => [AccountSubscription], { description: 'Subscriptions of the account, newest first (canceled ones included)' })
  async subscriptions(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<AccountSubscription[]> {
    return (await subscriptions.listSubscriptions(ctx, accountUrlId)).map(toSubscription);
  }

  @Authorized('platform:read')
  @Query(() => AccountSubscription)
  async subscription(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.getSubscription(ctx, accountUrlId, id));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountSubscription, { description: 'At most one non-canceled subscription per account (409 SUBSCRIPTION_ALREADY_EXISTS)' })
  async createSubscription(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => CreateSubscriptionInput) input: CreateSubscriptionInput,
  ): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.createSubscription(ctx, accountUrlId, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountSubscription, { description: 'Cancel at the end of the current period (default), or now with immediately: true' })
  async cancelSubscription(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('immediately', { nullable: true }) immediately?: boolean,
  ): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.moveSubscription(ctx, accountUrlId, id, immediately ? 'cancel_now' : 'cancel'));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountSubscription, { description: 'Undo a scheduled cancellation, or resume a paused subscription' })
  async reactivateSubscription(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.moveSubscription(ctx, accountUrlId, id, 'reactivate'));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountSubscription, { description: 'Pause: no billing, no MRR, the plan falls back to free until reactivated' })
  async suspendSubscription(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.moveSubscription(ctx, accountUrlId, id, 'suspend'));
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountSubscription, { description: 'Switch plan and/or billing cycle now (no proration: the new price is billed from the next period)' })
  async changeSubscriptionPlan(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ChangeSubscriptionPlanInput) input: ChangeSubscriptionPlanInput,
  ): Promise<AccountSubscription> {
    return toSubscription(await subscriptions.changePlan(ctx, accountUrlId, id, input));
  }

  @FieldResolver(() => SubscriptionModel)
  model(@Root() sub: AccountSubscription): SubscriptionModel {
    return toSubscriptionModel(sub.modelRow);
  }

  @FieldResolver(() => Account)
  async account(@Root() sub: AccountSubscription, @Ctx() ctx: PlatformContext): Promise<Account> {
    const row = await ctx.loaders.accountById.load(sub.accountId);
    if (!row) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${sub.accountId} not found`);
    return toAccount(row);
  }
}

/** Billing fields on Account, batched per request (billing.loaders.ts). */
@Resolver(() => Account)
export class AccountBillingResolver {
  @FieldResolver(() => String, { description: "The account's plan: the model code of its trialing, active or past-due subscription, else free" })
  async plan(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<string> {
    return ctx.loaders.planByAccount.load(account.id);
  }

  @Authorized('platform:read')
  @FieldResolver(() => [AccountSubscription])
  async subscriptions(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<AccountSubscription[]> {
    return (await ctx.loaders.subscriptionsByAccount.load(account.id)).map(toSubscription);
  }
}
