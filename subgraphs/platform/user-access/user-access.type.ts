// API shapes of user access records and of the "what can this user reach" views.
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';
import { Account } from '../accounts/account.type.js';
import { App } from '../apps/app.type.js';
import type { UserAccessEntity } from './user-access.entity.js';

@ObjectType({ description: "A user's access to an account or an app. Statuses: active, suspended, revoked (terminal)" })
export class UserAccess {
  @Field(() => ID, { description: 'the access record id (uac_...)' }) id!: string;
  @Field({ description: "the user's unique id (JWT sub)" }) userId!: string;
  @Field({ description: 'account or app' }) targetType!: string;
  @Field(() => ID, { description: "the account's or app's unique_id" }) targetId!: string;
  @Field(() => ID, { description: "the account's unique_id (for an app grant: the app's account)" }) accountId!: string;
  @Field({ description: "the account's url_id" }) accountUrlId!: string;
  @Field(() => ID, { nullable: true, description: 'the app, for an app grant' }) appId?: string;
  @Field({ description: 'owner, admin, member, viewer' }) role!: string;
  @Field({ description: 'active, suspended, revoked' }) status!: string;
  @Field({ nullable: true, description: 'user who granted it (JWT sub)' }) grantedBy?: string;
  @Field({ nullable: true, description: 'when the current suspension began' }) suspendedAt?: Date;
  @Field({ nullable: true }) revokedAt?: Date;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

export function toUserAccess(e: UserAccessEntity): UserAccess {
  const a = new UserAccess();
  a.id = e.id;
  a.userId = e.userId;
  a.targetType = e.targetType;
  a.targetId = e.targetId;
  a.accountId = e.account.id;
  a.accountUrlId = e.account.urlId;
  a.appId = e.app?.id ?? undefined;
  a.role = e.role;
  a.status = e.status;
  a.grantedBy = e.grantedBy ?? undefined;
  a.suspendedAt = e.suspendedAt ?? undefined;
  a.revokedAt = e.revokedAt ?? undefined;
  a.extraAttributes = e.extraAttributes ?? {};
  a.createdAt = e.createdAt;
  a.updatedAt = e.updatedAt;
  return a;
}

@ObjectType({ description: 'grantUserAccess result: created is false when the same active grant already existed (the call is idempotent)' })
export class GrantUserAccessResult {
  @Field(() => UserAccess) access!: UserAccess;
  @Field() created!: boolean;
}

@ObjectType({ description: 'An app a user can reach through an active grant' })
export class UserApp {
  @Field(() => App) app!: App;
  @Field({ description: 'the effective role: the strongest of the app grant and the account grant' }) role!: string;
  @Field({ description: 'app (a grant on the app itself) or account (a grant on its account)' }) via!: string;
  @Field(() => ID, { description: 'the access record giving the effective role' }) accessId!: string;
}

@ObjectType({ description: 'An account a user can reach through an active grant on it or on one of its apps' })
export class UserAccount {
  @Field(() => Account) account!: Account;
  @Field({ description: "the account grant's role; without one, the strongest role of the user's grants on its apps" }) role!: string;
  @Field({ description: 'account (a grant on the account itself) or app (grants on its apps only)' }) via!: string;
  @Field(() => ID, { description: 'the access record giving the role' }) accessId!: string;
}
