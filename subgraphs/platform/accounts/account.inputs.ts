import { Field, InputType } from 'type-graphql';

@InputType()
export class CreateAccountInput {
  @Field() name!: string;
  @Field({ description: 'unique within the platform' }) code!: string;
  @Field({ nullable: true, description: 'shared_cloud (default), dedicated_cloud, self_hosted, partner_cloud' }) deploymentModel?: string;
  @Field({ nullable: true }) preferredDomain?: string;
  @Field({ nullable: true, description: 'BCP 47 tag, e.g. en or pt-BR' }) preferredLanguage?: string;
  @Field({ nullable: true, description: 'active (default), suspended, closed' }) status?: string;
  @Field({ nullable: true, description: 'URL-safe identifier; derived from the name (or code) when omitted' }) urlId?: string;
}

/** Attributes left out keep their value; null clears an optional one. capabilities are never input. */
@InputType()
export class UpdateAccountInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'unique within the platform' }) code?: string;
  @Field({ nullable: true, description: 'unique within the platform; changes every /accounts/:url_id path' }) urlId?: string;
  @Field({ nullable: true, description: 'active, suspended, closed' }) status?: string;
  @Field({ nullable: true, description: 'changing it resets domain verification' }) preferredDomain?: string;
  @Field({ nullable: true }) preferredLanguage?: string;
  @Field({ nullable: true, description: 'capabilities follow it; shared_cloud is refused while the account has active test keys' }) deploymentModel?: string;
}
