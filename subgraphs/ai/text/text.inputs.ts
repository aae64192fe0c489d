import { Field, InputType, Int } from 'type-graphql';

@InputType()
export class SentimentInput {
  @Field({ description: 'The text to analyse' }) text!: string;
  @Field(() => String, { nullable: true, description: 'Language hint (ISO 639-1); the sentiment model reads English (en)' }) language?: string | null;
}

@InputType()
export class EntitiesInput {
  @Field() text!: string;
  @Field(() => [String], { nullable: true, description: 'Entity types to return: PERSON, ORG, LOCATION, DATE, MONEY, PRODUCT, EVENT, WORK_OF_ART (all when absent)' })
  types?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Language hint (ISO 639-1); the recognisers read English (en)' }) language?: string | null;
}

@InputType()
export class KeyPhrasesInput {
  @Field() text!: string;
  @Field(() => Int, { nullable: true, description: '1 to 50; 10 when absent' }) maxPhrases?: number | null;
  @Field(() => String, { nullable: true, description: 'Language hint (ISO 639-1); the phrase finder reads English (en)' }) language?: string | null;
}

@InputType()
export class LanguageInput {
  @Field() text!: string;
}

@InputType()
export class SummarizeInput {
  @Field() text!: string;
  @Field(() => Int, { nullable: true, description: 'Maximum summary length in characters (at least 20); a third of the text (at least 200) when absent' })
  maxLength?: number | null;
  @Field(() => String, { nullable: true, description: 'Only `extractive` exists' }) style?: string | null;
  @Field(() => String, { nullable: true, description: 'Language hint (ISO 639-1); the summariser reads English (en)' }) language?: string | null;
}
