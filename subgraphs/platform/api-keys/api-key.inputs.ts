import { Directive, Field, ID, InputType, Int } from 'type-graphql';

@InputType()
export class CreateApiKeyInput {
  @Field() name!: string;
  @Field({ description: 'publishable or secret' }) keyType!: string;
  @Field({ nullable: true, description: 'live (default) or test; test is refused on shared_cloud accounts' }) environment?: string;
  @Field(() => [String], { nullable: true, description: 'default: every scope the key type allows' }) scopes?: string[];
  @Field(() => Int, { nullable: true, description: "1-100000; omitted: the app's limit" }) rateLimitPerMinute?: number;
  @Field(() => [String], { nullable: true, description: 'IP addresses or CIDR blocks' }) allowedIps?: string[];
  @Field(() => [String], { nullable: true }) allowedOrigins?: string[];
  @Field({ nullable: true }) expiresAt?: Date;
}

@Directive('@inaccessible')
@InputType({ description: 'Internal: usage the gateway counted since its last flush' })
export class KeyUsageInput {
  @Field(() => ID, { description: 'the key record id' }) keyId!: string;
  @Field(() => Int) count!: number;
  @Field({ nullable: true }) lastUsedAt?: Date;
}
