import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType()
export class PostalAddressInput {
  @Field({ nullable: true }) line1?: string;
  @Field({ nullable: true }) line2?: string;
  @Field({ nullable: true }) city?: string;
  @Field({ nullable: true, description: 'state, province or county' }) region?: string;
  @Field({ nullable: true }) postalCode?: string;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2, e.g. US, DE, BR' }) country?: string;
}

@InputType()
export class ContactInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true, description: 'digits, spaces, +, -, ( and ), e.g. +1 415 555 0100' }) phone?: string;
}

@InputType()
export class BrandingInput {
  @Field({ nullable: true, description: '#RRGGBB (or #RGB)' }) primaryColor?: string;
  @Field({ nullable: true, description: '#RRGGBB (or #RGB)' }) secondaryColor?: string;
  @Field({ nullable: true, description: '#RRGGBB (or #RGB)' }) accentColor?: string;
  @Field({ nullable: true, description: 'read-only: ignored here; publish an uploaded logo (POST /accounts/:url_id/logo/publish)' }) logoUrl?: string;
}

@InputType({ description: 'Fields given replace the stored ones, nested objects key by key; null clears a field' })
export class AccountDetailsInput {
  @Field({ nullable: true }) legalName?: string;
  @Field({ nullable: true }) taxId?: string;
  @Field({ nullable: true, description: 'http(s) URL' }) website?: string;
  @Field(() => PostalAddressInput, { nullable: true }) address?: PostalAddressInput;
  @Field(() => ContactInput, { nullable: true }) contact?: ContactInput;
  @Field(() => BrandingInput, { nullable: true }) branding?: BrandingInput;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
