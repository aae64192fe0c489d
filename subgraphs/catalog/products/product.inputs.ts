import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class MoneyInput {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number;
}

@InputType()
export class CreateProductInput {
  @Field() name!: string;
  @Field() sku!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'active, draft (default), archived' }) status?: string;
  @Field({ nullable: true, description: 'physical (default), digital, service, bundle' }) type?: string;
  @Field(() => MoneyInput, { nullable: true }) price?: MoneyInput;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}
