import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType()
export class CreateAccountExchangeInput {
  @Field({ description: 'unique within the account, 1-100 characters' }) name!: string;
  @Field({ description: 'rabbitmq, kafka, nats, sqs, redis' }) brokerType!: string;
  @Field({ description: 'amqp(s)://, kafka(+ssl)://b1:9092,b2:9092, nats:// or tls://, https:// (SQS queue URL), redis(s)://; user info moves to username/password' })
  url!: string;
  @Field({ nullable: true, description: 'user name, or the access key id for SQS' }) username?: string;
  @Field({ nullable: true, description: 'password, or the secret access key for SQS: stored encrypted, never returned' }) password?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'non-secret broker settings (vhost, topic prefix, queue, region…), up to 8 KiB' })
  options?: Record<string, unknown>;
  @Field({ nullable: true, description: 'default true' }) enabled?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}

@InputType({ description: 'Only the fields given change; password null removes it' })
export class UpdateAccountExchangeInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) brokerType?: string;
  @Field({ nullable: true }) url?: string;
  @Field({ nullable: true }) username?: string;
  @Field({ nullable: true }) password?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown>;
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
