import { Field, InputType, Int } from 'type-graphql';

@InputType()
export class CreateAppInput {
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'web (default), mobile, backend, desktop, iot' }) appType?: string;
  @Field({ nullable: true, description: 'production (default), development, internal, demo' }) purpose?: string;
  @Field({ nullable: true, description: 'active (default), suspended, archived' }) status?: string;
  @Field(() => Int, { nullable: true, description: '1-100000, default 1000' }) rateLimitPerMinute?: number;
  @Field({ nullable: true, description: 'http(s) URL' }) webhookUrl?: string;
  @Field(() => [String], { nullable: true, description: 'origins such as https://app.example.com, or *' }) allowedOrigins?: string[];
  @Field({ nullable: true }) preferredDomain?: string;
  @Field({ nullable: true, description: 'default false' }) oauthEnabled?: boolean;
}

/** Attributes left out keep their value; null clears an optional one. domainVerified is never input. */
@InputType()
export class UpdateAppInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'web, mobile, backend, desktop, iot' }) appType?: string;
  @Field({ nullable: true, description: 'production, development, internal, demo' }) purpose?: string;
  @Field({ nullable: true, description: 'active, suspended, archived (keys work only while active)' }) status?: string;
  @Field(() => Int, { nullable: true, description: '1-100000' }) rateLimitPerMinute?: number;
  @Field({ nullable: true }) webhookUrl?: string;
  @Field(() => [String], { nullable: true }) allowedOrigins?: string[];
  @Field({ nullable: true, description: 'changing it resets domain verification' }) preferredDomain?: string;
  @Field({ nullable: true }) oauthEnabled?: boolean;
}
