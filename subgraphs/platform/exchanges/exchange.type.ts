import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { maskSecret } from '../../../lib/crypto.js';
import type { ExchangeEntity } from './exchange.entity.js';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType({ description: "An account's message-broker configuration (/accounts/:url_id/exchange)" })
export class AccountExchange {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'rabbitmq, kafka, nats, sqs, redis' }) brokerType!: string;
  @Field({ description: 'connection URL, without credentials' }) url!: string;
  @Field({ nullable: true }) username?: string;
  @Field() hasPassword!: boolean;
  @Field({ nullable: true, description: '•••• and the last four characters of the password' }) passwordMasked?: string;
  @Field(() => GraphQLJSONObject) options!: Record<string, unknown>;
  @Field() enabled!: boolean;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

export function toExchange(e: ExchangeEntity): AccountExchange {
  const x = new AccountExchange();
  x.id = e.id;
  x.name = e.name;
  x.brokerType = e.brokerType;
  x.url = e.url;
  x.username = e.username ?? undefined;
  x.hasPassword = !!e.secretSealed;
  x.passwordMasked = e.secretSealed ? maskSecret(e.secretLastFour) : undefined;
  x.options = e.options ?? {};
  x.enabled = e.enabled;
  x.extraAttributes = e.extraAttributes ?? {};
  x.createdAt = e.createdAt;
  x.updatedAt = e.updatedAt;
  return x;
}
