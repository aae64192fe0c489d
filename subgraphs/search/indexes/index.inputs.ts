import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType()
export class CreateIndexInput {
  @Field({ description: 'Index name used in paths: [A-Za-z0-9_-], 1 to 400 characters, unique in the app' })
  uid!: string;

  @Field({ nullable: true, description: 'Document field holding the document id: [A-Za-z0-9_-], 1 to 512 characters' })
  primaryKey?: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Initial settings (snake_case or camelCase keys); omitted keys take the defaults',
  })
  settings?: Record<string, unknown>;
}

@InputType()
export class SuggestionSettingsInput {
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => [String], { nullable: true }) sourceAttributes?: string[];
  @Field(() => Int, { nullable: true }) minQueryLength?: number;
  @Field(() => Int, { nullable: true }) maxSuggestions?: number;
  @Field({ nullable: true }) includeFrequency?: boolean;
}
