import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType({ description: 'Names a catalog block, for licensing to an account or provisioning to an app' })
export class BlockRefInput {
  @Field({ description: "the block's unique_id, e.g. blk_crm (GET /blocks, Query.blocks)" }) blockUniqueId!: string;
}

@InputType({ description: 'License a catalog block to an account: the block, and the license attributes the API documents do not list' })
export class LicenseBlockInput extends BlockRefInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
