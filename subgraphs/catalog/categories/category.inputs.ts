import { Field, ID, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class CategorySeoInput {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
}

@InputType()
export class CreateCategoryInput {
  @Field() name!: string;
  @Field({ nullable: true, description: 'unique per app; derived from the name when absent' }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ID, { nullable: true, description: 'the parent category; absent or null for a root' }) parentId?: string | null;
  @Field(() => Int, { nullable: true, description: 'order among siblings (0 first); appended last when absent' }) position?: number;
  @Field(() => CategorySeoInput, { nullable: true }) seo?: CategorySeoInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
}

@InputType({ description: 'Absent fields stay as they are; parentId null moves the category to the roots' })
export class UpdateCategoryInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) slug?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ID, { nullable: true }) parentId?: string | null;
  @Field(() => Int, { nullable: true }) position?: number;
  @Field(() => CategorySeoInput, { nullable: true }) seo?: CategorySeoInput | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
}
