// API shapes of the block catalog, licenses (account) and instances (app). Block fields of a license
// or instance come from the catalog rows the service loads with them (no per-row queries).
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@Directive('@key(fields: "id")')
@ObjectType({ description: 'A block of the catalog (Auth, CRM, ... Wallet)' })
export class Block {
  @Field(() => ID, { description: "the block's unique_id, stable (blk_auth, blk_crm, ...): the block_unique_id of license and provision calls" })
  id!: string;
  @Field({ description: 'lower-case code, stable (auth, crm, ...)' }) code!: string;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field(() => Int, { description: 'catalog order, from 1' }) position!: number;
}

export function toBlock(e: BlockEntity): Block {
  const b = new Block();
  b.id = e.id;
  b.code = e.code;
  b.name = e.name;
  b.description = e.description ?? undefined;
  b.position = e.position;
  return b;
}

@ObjectType({ description: 'A block licensed to an account' })
export class BlockLicense {
  @Field(() => ID, { description: 'the license id (lic_...)' }) id!: string;
  @Field(() => ID) blockUniqueId!: string;
  @Field(() => Block) block!: Block;
  @Field(() => ID, { description: "the account's unique_id" }) accountId!: string;
  @Field(() => [ID], { description: 'apps of the account the block is provisioned to' }) provisionedAppIds!: string[];
  @Field({ nullable: true, description: 'user who licensed it (JWT sub)' }) licensedBy?: string;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
}

export function toBlockLicense(e: BlockLicenseEntity, block: BlockEntity, appIds: string[]): BlockLicense {
  const l = new BlockLicense();
  l.id = e.id;
  l.blockUniqueId = block.id;
  l.block = toBlock(block);
  l.accountId = e.account.id;
  l.provisionedAppIds = appIds;
  l.licensedBy = e.licensedBy ?? undefined;
  l.extraAttributes = e.extraAttributes ?? {};
  l.createdAt = e.createdAt;
  return l;
}

@ObjectType({ description: 'A licensed block provisioned to an app' })
export class BlockInstance {
  @Field(() => ID, { description: 'the instance id (bki_...)' }) id!: string;
  @Field(() => ID) blockUniqueId!: string;
  @Field(() => Block) block!: Block;
  @Field(() => ID) appId!: string;
  @Field(() => ID, { description: 'the account license this instance draws on' }) licenseId!: string;
  @Field({ nullable: true, description: 'user who provisioned it (JWT sub)' }) provisionedBy?: string;
  @Field() createdAt!: Date;
}

export function toBlockInstance(e: BlockInstanceEntity, block: BlockEntity): BlockInstance {
  const i = new BlockInstance();
  i.id = e.id;
  i.blockUniqueId = block.id;
  i.block = toBlock(block);
  i.appId = e.app.id;
  i.licenseId = e.license.id;
  i.provisionedBy = e.provisionedBy ?? undefined;
  i.createdAt = e.createdAt;
  return i;
}

@ObjectType({ description: 'licenseBlock result: created is false when the account already had the license (the call is idempotent)' })
export class LicenseBlockResult {
  @Field(() => BlockLicense) license!: BlockLicense;
  @Field() created!: boolean;
}

@ObjectType({ description: 'provisionBlock result: created is false when the app already had the block (the call is idempotent)' })
export class ProvisionBlockResult {
  @Field(() => BlockInstance) instance!: BlockInstance;
  @Field() created!: boolean;
}
