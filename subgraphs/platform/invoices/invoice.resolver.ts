import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { systemClock } from '../../../lib/clock.js';
import type { PlatformContext } from '../context.js';
import { Invoice, PayInvoiceInput, toInvoice } from './invoice.type.js';
import * as invoices from './invoice.service.js';

@Resolver(() => Invoice)
export class InvoiceResolver {
  @Authorized('platform:read')
  @Query(() => [Invoice], { description: 'Invoices of the account, newest first' })
  async invoices(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('status', { nullable: true, description: 'due, paid or void' }) status?: string,
    @Arg('subscriptionId', () => ID, { nullable: true }) subscriptionId?: string,
  ): Promise<Invoice[]> {
    const now = systemClock.now();
    return (await invoices.listInvoices(ctx, accountUrlId, { status, subscriptionId })).map((i) => toInvoice(i, now));
  }

  @Authorized('platform:read')
  @Query(() => Invoice)
  async invoice(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<Invoice> {
    return toInvoice(await invoices.getInvoice(ctx, accountUrlId, id), systemClock.now());
  }

  @Authorized('platform:manage')
  @Mutation(() => Invoice, { description: 'Record the payment of a due invoice (manual processor)' })
  async payInvoice(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => PayInvoiceInput, { nullable: true }) input?: PayInvoiceInput,
  ): Promise<Invoice> {
    return toInvoice(await invoices.payInvoice(ctx, accountUrlId, id, input ?? {}), systemClock.now());
  }

  @Authorized('platform:manage')
  @Mutation(() => Invoice, { description: 'Write off a due invoice' })
  async voidInvoice(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<Invoice> {
    return toInvoice(await invoices.voidInvoice(ctx, accountUrlId, id), systemClock.now());
  }
}
