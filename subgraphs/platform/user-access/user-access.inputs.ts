import { Field, ID, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType({ description: 'Grant a user access to an account (and so to its apps) or to one app' })
export class GrantUserAccessInput {
  @Field({ description: "the user's unique id (the JWT sub)" }) userId!: string;
  @Field({ nullable: true, description: "the account: its url_id or unique_id (acct_...); optional with appId (then it must be the app's account)" })
  accountId?: string;
  @Field(() => ID, { nullable: true, description: 'the app unique_id, for an app-only grant' }) appId?: string;
  @Field({ nullable: true, description: 'owner, admin, member (default), viewer' }) role?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
