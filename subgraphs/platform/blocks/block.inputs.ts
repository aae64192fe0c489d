import { Field, InputType } from 'type-graphql';

@InputType({ description: 'Names a catalog block, for licensing to an account or provisioning to an app' })
export class BlockRefInput {
  @Field({ description: "the block's unique_id, e.g. blk_crm (GET /blocks, Query.blocks)" }) blockUniqueId!: string;
}
