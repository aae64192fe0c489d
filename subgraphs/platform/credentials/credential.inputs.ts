import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType()
export class CreateAccountCredentialInput {
  @Field({ description: 'unique within the account, 1-100 characters' }) name!: string;
  @Field({ description: 'issuer, lower-case: stripe, aws, sendgrid…' }) provider!: string;
  @Field({ nullable: true, description: 'api_key (default), access_key, oauth_client, service_account, basic_auth, token' }) credentialType?: string;
  @Field({ nullable: true, description: 'the non-secret half (access key id, client id, user name), shown as is' }) identifier?: string;
  @Field({ description: 'the secret value, up to 16384 characters: stored encrypted, never returned' }) secret!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'non-secret settings (region, scopes…), up to 8 KiB' }) metadata?: Record<string, unknown>;
  @Field({ nullable: true }) expiresAt?: Date;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}

@InputType({ description: 'Only the fields given change; a new `secret` replaces the stored one (rotation).' })
export class UpdateAccountCredentialInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) provider?: string;
  @Field({ nullable: true }) credentialType?: string;
  @Field({ nullable: true }) identifier?: string;
  @Field({ nullable: true }) secret?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field({ nullable: true }) expiresAt?: Date;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
