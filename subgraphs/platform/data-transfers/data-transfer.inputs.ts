import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType()
export class CreateDataTransferInput {
  @Field({ description: '1-200 characters' }) title!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'who may accept it; the access code is issued for this address' }) recipientEmail!: string;
  @Field({ nullable: true }) recipientName?: string;
  @Field({ description: 'the agreement text the recipient accepts or declines (up to 100000 characters)' }) agreement!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'what is transferred, for display (files, sizes): no secrets; up to 64 KiB' })
  contents?: Record<string, unknown>;
  @Field({ nullable: true, description: 'default: 14 days from now; at most 365 days' }) expiresAt?: Date;
  @Field(() => Int, { nullable: true, description: 'alternative to expiresAt: 1-365 days from now' }) expiresInDays?: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
