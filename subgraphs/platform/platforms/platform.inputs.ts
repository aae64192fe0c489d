import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class CreatePlatformInput {
  @Field({ description: 'unique; [a-z0-9][a-z0-9_-]{1,62}; sent by callers as X-Platform' }) code!: string;
  @Field() name!: string;
  @Field({ nullable: true, description: 'URL-safe identifier; derived from the name when omitted' }) urlId?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) website?: string;
  @Field({ nullable: true, description: 'active (default), inactive, suspended' }) status?: string;
  @Field({ nullable: true, description: 'default true' }) enabled?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true }) settings?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

/** PUT semantics of this API: attributes left out keep their value; null clears an optional one. */
@InputType()
export class UpdatePlatformInput {
  @Field({ nullable: true, description: 'immutable (it is the X-Platform value): only the current code is accepted' }) code?: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) urlId?: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) website?: string;
  @Field({ nullable: true, description: 'active, inactive, suspended' }) status?: string;
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'replaces the whole object' }) settings?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'replaces the whole object' }) metadata?: Record<string, unknown>;
}
