// The API shape of an identity (entity fields minus the partition columns).
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { IdentityEntity } from './identity.entity.js';

@ObjectType('App')
@Directive('@key(fields: "id")')
export class AppRef {
  @Field(() => ID) id!: string;
}

@Directive('@key(fields: "id")')
@ObjectType()
export class Identity {
  @Field(() => ID) id!: string;
  @Field() userUniqueId!: string;
  @Field({ description: '`active` after registration' }) status!: string;
  @Field() registeredAt!: Date;
  /** owning app: resolved by the platform subgraph */
  @Field(() => AppRef) app!: AppRef;
}

export function toIdentity(e: IdentityEntity): Identity {
  const i = new Identity();
  i.id = e.id;
  i.userUniqueId = e.userUniqueId;
  i.status = e.status;
  i.registeredAt = e.registeredAt;
  i.app = { id: e.appId };
  return i;
}
