import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { InvoiceEntity } from '../subscriptions/invoice.entity.js';

@ObjectType()
export class Invoice {
  @Field(() => ID) id!: string;
  @Field(() => ID) subscriptionId!: string;
  @Field(() => Int, { description: 'amount in cents' }) amountCents!: number;
  @Field() currency!: string;
  @Field() periodStart!: Date;
  @Field() periodEnd!: Date;
  @Field({ description: 'due, paid, void' }) status!: string;
  @Field({ description: 'true when due and past dueAt' }) overdue!: boolean;
  @Field() processor!: string;
  @Field() issuedAt!: Date;
  @Field() dueAt!: Date;
  @Field({ nullable: true }) paidAt?: Date;
  @Field({ nullable: true }) voidedAt?: Date;
  @Field({ nullable: true }) paymentReference?: string;
}

export function toInvoice(e: InvoiceEntity, now: Date): Invoice {
  const i = new Invoice();
  i.id = e.id;
  i.subscriptionId = e.subscription.id;
  i.amountCents = e.amountCents;
  i.currency = e.currency;
  i.periodStart = e.periodStart;
  i.periodEnd = e.periodEnd;
  i.status = e.status;
  i.overdue = e.status === 'due' && e.dueAt.getTime() <= now.getTime();
  i.processor = e.processor;
  i.issuedAt = e.issuedAt;
  i.dueAt = e.dueAt;
  i.paidAt = e.paidAt ?? undefined;
  i.voidedAt = e.voidedAt ?? undefined;
  i.paymentReference = e.paymentReference ?? undefined;
  return i;
}

@InputType()
export class PayInvoiceInput {
  @Field({ nullable: true, description: "the payment's reference (bank transfer id, cheque number…)" }) reference?: string;
  @Field({ nullable: true, description: 'when the payment was received (default now; not in the future; earlier than the issue date for prepayments)' }) paidAt?: Date;
}
