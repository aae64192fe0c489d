import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class CollectionSeoInput {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
}

@InputType()
export class CreateCollectionInput {
  @Field() name!: string;
  @Field({ nullable: true, description: 'unique per app; derived from the name when absent' }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ nullable: true, description: 'manual (default) or automated' }) type?: string;
  @Field({ nullable: true, description: 'active (default), draft or archived' }) status?: string;
  @Field(() => Date, { nullable: true }) startDate?: Date | null;
  @Field(() => Date, { nullable: true }) endDate?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'required for automated, absent for manual' }) rules?: Record<string, unknown> | null;
  @Field(() => CollectionSeoInput, { nullable: true }) seo?: CollectionSeoInput | null;
}

@InputType({ description: 'Absent fields stay as they are; the type of a collection does not change' })
export class UpdateCollectionInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ nullable: true }) status?: string;
  @Field(() => Date, { nullable: true }) startDate?: Date | null;
  @Field(() => Date, { nullable: true }) endDate?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) rules?: Record<string, unknown> | null;
  @Field(() => CollectionSeoInput, { nullable: true }) seo?: CollectionSeoInput | null;
}
