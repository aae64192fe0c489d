import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { AccountDetailsEntity } from './account-details.entity.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType()
export class PostalAddress {
  @Field({ nullable: true }) line1?: string;
  @Field({ nullable: true }) line2?: string;
  @Field({ nullable: true }) city?: string;
  @Field({ nullable: true }) region?: string;
  @Field({ nullable: true }) postalCode?: string;
  @Field({ nullable: true }) country?: string;
}

@ObjectType()
export class Contact {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) phone?: string;
}

@ObjectType()
export class Branding {
  @Field({ nullable: true }) primaryColor?: string;
  @Field({ nullable: true }) secondaryColor?: string;
  @Field({ nullable: true }) accentColor?: string;
  @Field({ nullable: true, description: 'set by publishing an uploaded logo; read-only here' }) logoUrl?: string;
}

@ObjectType({ description: 'Address, contact and branding of an account; `id` is the account id (one per account)' })
export class AccountDetails {
  @Field(() => ID) id!: string;
  @Field({ nullable: true }) legalName?: string;
  @Field({ nullable: true }) taxId?: string;
  @Field({ nullable: true }) website?: string;
  @Field(() => PostalAddress) address!: PostalAddress;
  @Field(() => Contact) contact!: Contact;
  @Field(() => Branding) branding!: Branding;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field({ nullable: true, description: 'null until details are first saved' }) createdAt?: Date;
  @Field({ nullable: true }) updatedAt?: Date;
}

@ObjectType({ description: "The account's published logo" })
export class AccountLogo {
  @Field(() => ID, { description: 'the upload id' }) id!: string;
  @Field() logoUrl!: string;
  @Field({ description: 'png, jpeg, gif, webp' }) format!: string;
  @Field() contentType!: string;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
  @Field(() => Int) bytes!: number;
}

/** The details of `accountId`; an account without a row answers with empty details. */
export function toAccountDetails(accountId: string, e: AccountDetailsEntity | null): AccountDetails {
  const d = new AccountDetails();
  d.id = accountId;
  d.legalName = e?.legalName ?? undefined;
  d.taxId = e?.taxId ?? undefined;
  d.website = e?.website ?? undefined;
  d.address = Object.assign(new PostalAddress(), e?.address ?? {});
  d.contact = Object.assign(new Contact(), e?.contact ?? {});
  d.branding = Object.assign(new Branding(), e?.branding ?? {}, { logoUrl: e?.logoUrl ?? undefined });
  d.extraAttributes = e?.extraAttributes ?? {};
  d.createdAt = e?.createdAt;
  d.updatedAt = e?.updatedAt;
  return d;
}
