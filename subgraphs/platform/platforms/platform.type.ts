// API shape of a platform. Kept apart from the row so columns can change without touching the contract.
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { PlatformEntity } from './platform.entity.js';

@Directive('@key(fields: "id")')
@ObjectType()
export class Platform {
  @Field(() => ID) id!: string;
  @Field({ description: 'URL-safe identifier' }) urlId!: string;
  @Field({ description: 'platform code, sent as X-Platform' }) code!: string;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) website?: string;
  @Field({ description: 'active, inactive, suspended' }) status!: string;
  @Field() enabled!: boolean;
  @Field({ description: 'database schema name of the platform' }) schemaName!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) settings?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field({ nullable: true, description: 'set while soft-deleted (only restorePlatform returns such a platform)' }) deletedAt?: Date;
}

export function toPlatform(e: PlatformEntity): Platform {
  const p = new Platform();
  p.id = e.id;
  p.urlId = e.urlId;
  p.code = e.code;
  p.name = e.name;
  p.description = e.description ?? undefined;
  p.email = e.email ?? undefined;
  p.website = e.website ?? undefined;
  p.status = e.status;
  p.enabled = e.enabled;
  p.schemaName = e.schemaName;
  p.settings = e.settings ?? {};
  p.metadata = e.metadata ?? {};
  p.createdAt = e.createdAt;
  p.updatedAt = e.updatedAt;
  p.deletedAt = e.deletedAt ?? undefined;
  return p;
}
