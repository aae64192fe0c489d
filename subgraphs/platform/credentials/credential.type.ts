// API shape of an account credential: the secret never appears, only its last four characters.
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { maskSecret } from '../../../lib/crypto.js';
import type { CredentialEntity } from './credential.entity.js';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType({ description: 'A third-party or cloud credential of an account (/accounts/:url_id/keys)' })
export class AccountCredential {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() provider!: string;
  @Field({ description: 'api_key, access_key, oauth_client, service_account, basic_auth, token' }) credentialType!: string;
  @Field({ nullable: true }) identifier?: string;
  @Field({ description: '•••• and the last four characters (none for secrets under 12 characters)' }) secretMasked!: string;
  @Field({ nullable: true }) secretLastFour?: string;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field({ nullable: true }) expiresAt?: Date;
  @Field({ description: 'when the secret was last set' }) secretUpdatedAt!: Date;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

export function toCredential(e: CredentialEntity): AccountCredential {
  const c = new AccountCredential();
  c.id = e.id;
  c.name = e.name;
  c.provider = e.provider;
  c.credentialType = e.credentialType;
  c.identifier = e.identifier ?? undefined;
  c.secretMasked = maskSecret(e.secretLastFour);
  c.secretLastFour = e.secretLastFour || undefined;
  c.metadata = e.metadata ?? {};
  c.expiresAt = e.expiresAt ?? undefined;
  c.secretUpdatedAt = e.secretUpdatedAt;
  c.extraAttributes = e.extraAttributes ?? {};
  c.createdAt = e.createdAt;
  c.updatedAt = e.updatedAt;
  return c;
}
