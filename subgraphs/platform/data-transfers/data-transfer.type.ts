import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { maskEmail } from './access.rules.js';
import type { DataTransferAuditEntity, DataTransferEntity } from './data-transfer.entity.js';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType({ description: 'A data transfer as its admin sees it' })
export class DataTransfer {
  @Field(() => ID) id!: string;
  @Field({ description: 'the public handle: /data_transfers/:code' }) code!: string;
  @Field() title!: string;
  @Field({ nullable: true }) description?: string;
  @Field() recipientEmail!: string;
  @Field({ nullable: true }) recipientName?: string;
  @Field() agreement!: string;
  @Field(() => GraphQLJSONObject) contents!: Record<string, unknown>;
  @Field({ description: 'open, accepted, declined' }) status!: string;
  @Field() expired!: boolean;
  @Field() expiresAt!: Date;
  @Field({ nullable: true }) decidedAt?: Date;
  @Field({ nullable: true }) declineReason?: string;
  @Field() createdBy!: string;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
}

export function toDataTransfer(e: DataTransferEntity): DataTransfer {
  const t = new DataTransfer();
  t.id = e.id;
  t.code = e.code;
  t.title = e.title;
  t.description = e.description ?? undefined;
  t.recipientEmail = e.recipientEmail;
  t.recipientName = e.recipientName ?? undefined;
  t.agreement = e.agreement;
  t.contents = e.contents ?? {};
  t.status = e.status;
  t.expired = e.expiresAt.getTime() <= Date.now();
  t.expiresAt = e.expiresAt;
  t.decidedAt = e.decidedAt ?? undefined;
  t.declineReason = e.declineReason ?? undefined;
  t.createdBy = e.createdBy;
  t.extraAttributes = e.extraAttributes ?? {};
  t.createdAt = e.createdAt;
  return t;
}

@ObjectType({ description: 'What anyone holding the code sees: no ids, no full e-mail address' })
export class PublicDataTransfer {
  @Field(() => ID) code!: string;
  @Field() title!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'the sending account' }) accountName!: string;
  @Field({ nullable: true }) recipientName?: string;
  @Field({ description: 'masked, e.g. j•••@example.com' }) recipientEmail!: string;
  @Field() agreement!: string;
  @Field(() => GraphQLJSONObject) contents!: Record<string, unknown>;
  @Field({ description: 'open, accepted, declined' }) status!: string;
  @Field() expiresAt!: Date;
  @Field({ nullable: true }) decidedAt?: Date;
}

export function toPublicDataTransfer(e: DataTransferEntity): PublicDataTransfer {
  const t = new PublicDataTransfer();
  t.code = e.code;
  t.title = e.title;
  t.description = e.description ?? undefined;
  t.accountName = e.account.name;
  t.recipientName = e.recipientName ?? undefined;
  t.recipientEmail = maskEmail(e.recipientEmail);
  t.agreement = e.agreement;
  t.contents = e.contents ?? {};
  t.status = e.status;
  t.expiresAt = e.expiresAt;
  t.decidedAt = e.decidedAt ?? undefined;
  return t;
}

@ObjectType({ description: 'One entry of the append-only audit trail' })
export class DataTransferAuditEntry {
  @Field(() => ID) id!: string;
  @Field({ description: 'created, details_viewed, access_requested, access_verified, access_denied, accepted, declined, event' }) action!: string;
  @Field({ description: 'admin:<user id>, public (anyone with the code), recipient (verified access)' }) actor!: string;
  @Field(() => GraphQLJSONObject) detail!: Record<string, unknown>;
  @Field() createdAt!: Date;
}

export function toAuditEntry(e: DataTransferAuditEntity): DataTransferAuditEntry {
  const a = new DataTransferAuditEntry();
  a.id = e.id;
  a.action = e.action;
  a.actor = e.actor;
  a.detail = e.detail ?? {};
  a.createdAt = e.createdAt;
  return a;
}

@ObjectType({ description: 'An access code was issued and sent to the recipient (see docs: delivered as the data_transfer.access_requested event)' })
export class DataTransferAccessRequest {
  @Field(() => ID) code!: string;
  @Field({ description: 'when the access code stops working' }) accessCodeExpiresAt!: Date;
  @Field({ description: 'who it was sent to, masked' }) sentTo!: string;
}

@ObjectType({ description: 'Verified access: the token for accept, decline and events' })
export class DataTransferAccess {
  @Field(() => ID) code!: string;
  @Field() accessToken!: string;
  @Field() expiresAt!: Date;
}
