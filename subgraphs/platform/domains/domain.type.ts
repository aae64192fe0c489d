// API shape of a domain verification (apps and accounts alike).
import { Field, ID, ObjectType } from 'type-graphql';
import type { RecordCheck, VerificationStatus } from './domain.rules.js';

@ObjectType({ description: 'One DNS record the domain must publish, and what DNS answered' })
export class DomainRecordCheck {
  @Field({ description: 'ownership, spf or dkim' }) purpose!: string;
  @Field({ description: 'TXT' }) type!: string;
  @Field({ description: 'the DNS name to publish it at' }) name!: string;
  @Field({ description: 'the value to publish (for spf and dkim: a value that passes)' }) value!: string;
  @Field({ description: 'whether the published records satisfy it' }) ok!: boolean;
  @Field(() => [String], { description: 'the relevant TXT values found at the name' }) found!: string[];
  @Field({ nullable: true, description: 'why it does not pass' }) problem?: string;
}

@ObjectType()
export class DomainVerification {
  @Field(() => ID, { description: 'the app or account id' }) id!: string;
  @Field({ description: 'app or account' }) subjectType!: string;
  @Field() domain!: string;
  @Field({ description: 'not_started (no token issued yet), pending, verified, dns_unavailable (nothing changed)' }) status!: string;
  @Field() domainVerified!: boolean;
  @Field({ nullable: true }) verifiedAt?: Date;
  @Field({ nullable: true, description: 'when DNS was last consulted' }) checkedAt?: Date;
  @Field(() => [DomainRecordCheck], { description: 'empty while not_started' }) records!: DomainRecordCheck[];
}

export interface VerificationView {
  id: string;
  subjectType: 'app' | 'account';
  domain: string;
  status: VerificationStatus;
  domainVerified: boolean;
  verifiedAt?: Date | null;
  checkedAt?: Date | null;
  records: RecordCheck[];
}

export function toDomainVerification(v: VerificationView): DomainVerification {
  return Object.assign(new DomainVerification(), {
    ...v,
    verifiedAt: v.verifiedAt ?? undefined,
    checkedAt: v.checkedAt ?? undefined,
    records: v.records.map((r) => Object.assign(new DomainRecordCheck(), r)),
  });
}
