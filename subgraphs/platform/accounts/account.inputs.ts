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
