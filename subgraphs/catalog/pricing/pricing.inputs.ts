import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'An amount in the smallest unit of a currency' })
export class PriceInput {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
}

@InputType()
export class CurrencyPriceInput {
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => Int, { nullable: true }) compareAt?: number | null;
}

@InputType()
export class PriceTierInput {
  @Field(() => Int) minQuantity!: number;
  @Field(() => Int, { nullable: true, description: 'null or absent: no upper bound (the highest tier only)' }) maxQuantity?: number | null;
  @Field(() => PriceInput) price!: PriceInput;
}

@InputType({ description: 'Exactly one of customerId and customerGroupId' })
export class CustomerPriceInput {
  @Field(() => String, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) customerGroupId?: string | null;
  @Field(() => PriceInput) price!: PriceInput;
}

@InputType()
export class ScheduledPriceInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => PriceInput) price!: PriceInput;
  @Field(() => PriceInput, { nullable: true }) compareAt?: PriceInput | null;
  @Field({ description: 'inclusive' }) startsAt!: Date;
  @Field(() => Date, { nullable: true, description: 'exclusive; null or absent: no end' }) endsAt?: Date | null;
}
