import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { SubscriptionRowEntity } from './subscription-row.entity.js';

export const INVOICE_STATUSES = ['due', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * One invoice per billed period of a subscription (the unique (subscription, period_start) makes a
 * renewal that runs twice, on two replicas, issue it once). Amounts in cents.
 */
@Entity({ tableName: 'invoices' })
@Unique({ properties: ['subscription', 'periodStart'] })
@Index({ properties: ['account', 'issuedAt'] })
@Index({ properties: ['platform', 'status'] })
export class InvoiceEntity extends SubscriptionRowEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('inv');

  @Property()
  amountCents!: number;

  @Property({ length: 3 })
  currency!: string;

  @Property({ type: 'timestamptz' })
  periodStart!: Date;

  @Property({ type: 'timestamptz' })
  periodEnd!: Date;

  @Enum({ items: () => INVOICE_STATUSES })
  status!: InvoiceStatus;

  @Property({ length: 32 })
  processor!: string;

  @Property({ type: 'timestamptz' })
  issuedAt!: Date;

  @Property({ type: 'timestamptz' })
  dueAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  voidedAt?: Date | null;

  /** the processor's payment reference (manual: what the operator recorded, e.g. a bank transfer id) */
  @Property({ length: 200, nullable: true })
  paymentReference?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
