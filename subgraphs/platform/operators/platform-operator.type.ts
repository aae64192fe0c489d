// API shape of a platform operator, and the gateway's internal view of one (@inaccessible).
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { PlatformOperatorEntity } from '../platforms/platform-operator.entity.js';

@ObjectType({ description: 'A user (JWT sub) who may operate the platform, with the platform scopes the record grants' })
export class PlatformOperator {
  @Field(() => ID) id!: string;
  @Field(() => ID) platformId!: string;
  @Field({ description: "the operator's JWT sub" }) userId!: string;
  @Field(() => [String], { description: 'platform:admin, platform:manage, platform:read: a token of this user is capped to these on the platform' }) scopes!: string[];
  @Field({ description: 'owner (created the platform) or operator' }) role!: string;
  @Field({ nullable: true, description: 'JWT sub of who added the operator (none for the owner)' }) addedBy?: string;
  @Field() createdAt!: Date;
}

export function toPlatformOperator(e: PlatformOperatorEntity): PlatformOperator {
  const o = new PlatformOperator();
  o.id = e.id;
  o.platformId = e.platform.id;
  o.userId = e.userId;
  o.scopes = [...e.scopes];
  o.role = e.role;
  o.addedBy = e.addedBy ?? undefined;
  o.createdAt = e.createdAt;
  return o;
}

@Directive('@inaccessible')
@ObjectType({ description: 'Internal: the operator record the gateway caps a platform token with' })
export class OperatorGrant {
  @Field(() => ID) platformId!: string;
  @Field() platformCode!: string;
  @Field(() => [String]) scopes!: string[];
}
