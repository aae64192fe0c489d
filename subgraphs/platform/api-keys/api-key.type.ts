// API shapes for keys. `keyId` is the full key value only in the createApiKey response, the masked
// form everywhere else. ApiKeyVerification is internal to the gateway (@inaccessible).
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { ApiKeyEntity } from './api-key.entity.js';
import { maskKey } from './api-key.rules.js';

@Directive('@key(fields: "id")')
@ObjectType()
export class ApiKey {
  @Field(() => ID) id!: string;
  @Field({ description: 'The key value: in full only in the create, regenerate and rotateSecret responses, masked (prefix…last four) otherwise' }) keyId!: string;
  @Field() name!: string;
  @Field({ description: 'publishable or secret' }) keyType!: string;
  @Field({ description: 'test or live' }) environment!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => Int, { nullable: true, description: "null: the app's rate limit applies" }) rateLimitPerMinute?: number;
  @Field(() => [String]) allowedIps!: string[];
  @Field(() => [String]) allowedOrigins!: string[];
  @Field({ nullable: true }) expiresAt?: Date;
  @Field(() => Int) usageCount!: number;
  @Field({ nullable: true }) lastUsedAt?: Date;
  @Field() createdAt!: Date;
  @Field({ nullable: true, description: 'when the value last changed (regenerate, rotateSecret)' }) rotatedAt?: Date;
  @Field({ nullable: true, description: 'after rotateSecret: the previous value works until then' }) previousKeyExpiresAt?: Date;
  @Field({ nullable: true, description: 'set once revoked (only the revoke response shows a revoked key)' }) revokedAt?: Date;
  /** for the `app` field resolver; not a GraphQL field */
  appId!: string;
}

export function toApiKey(e: ApiKeyEntity, fullValue?: string): ApiKey {
  const k = new ApiKey();
  k.id = e.id;
  k.keyId = fullValue ?? maskKey(e.keyPrefix, e.lastFour);
  k.name = e.name;
  k.keyType = e.keyType;
  k.environment = e.environment;
  k.scopes = e.scopes ?? [];
  k.rateLimitPerMinute = e.rateLimitPerMinute ?? undefined;
  k.allowedIps = e.allowedIps ?? [];
  k.allowedOrigins = e.allowedOrigins ?? [];
  k.expiresAt = e.expiresAt ?? undefined;
  k.usageCount = Number(e.usageCount);
  k.lastUsedAt = e.lastUsedAt ?? undefined;
  k.createdAt = e.createdAt;
  k.rotatedAt = e.rotatedAt ?? undefined;
  // a grace period that has ended is not worth showing
  k.previousKeyExpiresAt = e.previousKeyExpiresAt && e.previousKeyExpiresAt > new Date() ? e.previousKeyExpiresAt : undefined;
  k.revokedAt = e.revokedAt ?? undefined;
  k.appId = e.app.id;
  return k;
}

@Directive('@inaccessible')
@ObjectType({ description: 'Internal: what the gateway needs to authenticate a key. Expiry, IP and origin are checked by the gateway.' })
export class ApiKeyVerification {
  @Field(() => ID, { description: 'the key record id' }) keyId!: string;
  @Field(() => ID) appId!: string;
  @Field(() => ID) accountId!: string;
  @Field(() => ID) platformId!: string;
  @Field() platformCode!: string;
  @Field() environment!: string;
  @Field() keyType!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => Int, { description: "the key's limit, else the app's" }) rateLimitPerMinute!: number;
  @Field(() => Int, { description: "the app's limit, one budget shared by all its keys" }) appRateLimitPerMinute!: number;
  @Field(() => Int, { nullable: true, description: "the key's own limit (null: only the app's applies)" }) keyRateLimitPerMinute?: number;
  @Field(() => [String]) allowedIps!: string[];
  @Field(() => [String]) allowedOrigins!: string[];
  @Field(() => [String], { description: "the app's allowed_origins: the browser origins allowed when the key lists none" }) appAllowedOrigins!: string[];
  @Field({ nullable: true }) expiresAt?: Date;
  @Field() revoked!: boolean;
  @Field({ description: 'false when the platform is deleted, disabled or not active' }) platformActive!: boolean;
  @Field() appStatus!: string;
  @Field({ description: "closed when the account is soft-deleted" }) accountStatus!: string;
  @Field() deploymentModel!: string;
  @Field({ description: "the account's plan: model code of its trialing/active/past-due subscription, else free" }) plan!: string;
}
