import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType()
export class CreateSubscriptionInput {
  @Field({ description: 'code of a subscription model: free, starter, growth, enterprise' }) modelCode!: string;
  @Field({ nullable: true, description: 'monthly (default) or annual' }) billingCycle?: string;
  @Field({ nullable: true, description: "start with the model's trial (default: true when the model has trial days)" }) trial?: boolean;
  @Field({ nullable: true, description: 'renew at the end of each period (default true); false ends it at the period end' }) autoRenew?: boolean;
  @Field({ nullable: true, description: 'payment processor: manual (the default and only built-in one)' }) processor?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}

@InputType()
export class ChangeSubscriptionPlanInput {
  @Field({ nullable: true, description: 'the new model code' }) modelCode?: string;
  @Field({ nullable: true, description: 'the new billing cycle: monthly or annual' }) billingCycle?: string;
}
