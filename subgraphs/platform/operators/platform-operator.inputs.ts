import { Field, InputType } from 'type-graphql';

@InputType({ description: 'Let a user (JWT sub) operate the platform' })
export class AddPlatformOperatorInput {
  @Field({ description: "the user's unique id (the JWT sub)" }) userId!: string;
  @Field(() => [String], { nullable: true, description: 'platform:admin, platform:manage, platform:read (default: platform:read)' }) scopes?: string[];
}
