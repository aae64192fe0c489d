// API shape of an account: adds the computed `capabilities` and resolves `platform` / `apps`
// through DataLoaders (account.resolver.ts), so the row's relation objects never leak out.
import { Directive, Field, ID, ObjectType } from 'type-graphql';
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
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  /** for the field resolvers; not a GraphQL field */
  platformId!: string;
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
  a.createdAt = e.createdAt;
  a.updatedAt = e.updatedAt;
  a.platformId = e.platform.id;
  return a;
}
