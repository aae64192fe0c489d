// API shape of an account: adds the computed `capabilities` and resolves `platform` / `apps`
// through DataLoaders (account.resolver.ts), so the row's relation objects never leak out.
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { PlatformLoaders } from '../context.js';
import type { AccountEntity } from './account.entity.js';
import { capabilitiesOf } from './capabilities.rules.js';

@ObjectType({ description: 'Read-only; derived from deploymentModel' })
export class AccountCapabilities {
  @Field() canExportData!: boolean;
  @Field() canExportTerraform!: boolean;
  @Field() canViewMonitoring!: boolean;
  @Field() canInstantProvision!: boolean;
  @Field() hasDedicatedSupport!: boolean;
  @Field() hasSlaGuarantee!: boolean;
  @Field() canCustomizeInfra!: boolean;
  @Field() requiresVpn!: boolean;
  @Field() dataResidencyConfigurable!: boolean;
}

@Directive('@key(fields: "id")')
@ObjectType()
export class Account {
  @Field(() => ID) id!: string;
  @Field({ description: 'URL-safe identifier, used in paths' }) urlId!: string;
  @Field() code!: string;
  @Field() name!: string;
  @Field({ description: 'active, suspended, closed' }) status!: string;
  @Field({ nullable: true }) preferredDomain?: string;
  @Field({ nullable: true }) preferredLanguage?: string;
  @Field({ description: 'shared_cloud, dedicated_cloud, self_hosted, partner_cloud' }) deploymentModel!: string;
  @Field(() => AccountCapabilities) capabilities!: AccountCapabilities;
  @Field({ description: 'set by the domain verification operations only' }) domainVerified!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field({ nullable: true, description: 'set while soft-deleted (restore and the global list with includeDeleted show such accounts)' }) deletedAt?: Date;
  /** for the field resolvers; not GraphQL fields */
  platformId!: string;
  loaders?: PlatformLoaders;
}

export function toAccount(e: AccountEntity): Account {
  const a = new Account();
  a.id = e.id;
  a.urlId = e.urlId;
  a.code = e.code;
  a.name = e.name;
  a.status = e.status;
  a.preferredDomain = e.preferredDomain ?? undefined;
  a.preferredLanguage = e.preferredLanguage ?? undefined;
  a.deploymentModel = e.deploymentModel;
  a.capabilities = Object.assign(new AccountCapabilities(), capabilitiesOf(e.deploymentModel));
  a.domainVerified = e.domainVerified;
  a.createdAt = e.createdAt;
  a.updatedAt = e.updatedAt;
  a.deletedAt = e.deletedAt ?? undefined;
  a.platformId = e.platform.id;
  return a;
}

@ObjectType()
export class AccountPage {
  @Field(() => [Account]) items!: Account[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
}

export function toAccountPage(p: { items: AccountEntity[]; total: number; page: number; pageSize: number }): AccountPage {
  return Object.assign(new AccountPage(), { ...p, items: p.items.map(toAccount) });
}
