// API shape of an app. `account` and `apiKeys` are field resolvers (app.resolver.ts) backed by DataLoaders.
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { AppEntity } from './app.entity.js';

@Directive('@key(fields: "id")')
@ObjectType()
export class App {
  @Field(() => ID, { description: "the app's unique_id (X-App-Id)" }) id!: string;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'web, mobile, backend, desktop, iot' }) appType!: string;
  @Field({ description: 'production, development, internal, demo' }) purpose!: string;
  @Field({ description: 'active, suspended, archived' }) status!: string;
  @Field() oauthEnabled!: boolean;
  @Field(() => Int, { description: 'requests per minute, 1-100000; keys without their own limit use this' }) rateLimitPerMinute!: number;
  @Field({ nullable: true }) webhookUrl?: string;
  @Field(() => [String], { description: 'CORS origins' }) allowedOrigins!: string[];
  @Field({ nullable: true }) preferredDomain?: string;
  @Field() domainVerified!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field({ nullable: true, description: 'set once soft-deleted (only the delete response shows such an app)' }) deletedAt?: Date;
  /** for the field resolvers; not GraphQL fields */
  accountId!: string;
  platformId!: string;
}

export function toApp(e: AppEntity): App {
  const a = new App();
  a.id = e.id;
  a.name = e.name;
  a.description = e.description ?? undefined;
  a.appType = e.appType;
  a.purpose = e.purpose;
  a.status = e.status;
  a.oauthEnabled = e.oauthEnabled;
  a.rateLimitPerMinute = e.rateLimitPerMinute;
  a.webhookUrl = e.webhookUrl ?? undefined;
  a.allowedOrigins = e.allowedOrigins ?? [];
  a.preferredDomain = e.preferredDomain ?? undefined;
  a.domainVerified = e.domainVerified;
  a.createdAt = e.createdAt;
  a.updatedAt = e.updatedAt;
  a.deletedAt = e.deletedAt ?? undefined;
  a.accountId = e.account.id;
  a.platformId = e.platform.id;
  return a;
}
