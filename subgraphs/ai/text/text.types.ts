// API shapes of the text-analysis results (ai.md, Text analysis).
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class SentimentScores {
  @Field(() => Float) positive!: number;
  @Field(() => Float) neutral!: number;
  @Field(() => Float) negative!: number;
}

@ObjectType()
export class SentimentResult {
  @Field(() => ID) id!: string;
  @Field(() => Float, { description: 'Compound score of VADER with the review rules, -1 to 1 (docs/ai.md)' }) score!: number;
  @Field({ description: 'positive, neutral or negative' }) label!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => SentimentScores) scores!: SentimentScores;
  @Field({ description: 'The method that produced the answer (docs/ai.md)' }) model!: string;
}

@ObjectType()
export class TextEntity {
  @Field() text!: string;
  @Field() type!: string;
  @Field(() => Int, { description: 'Offset of the first character (UTF-16 code units, 0-based)' }) start!: number;
  @Field(() => Int, { description: 'Offset after the last character' }) end!: number;
  @Field(() => Float) confidence!: number;
}

@ObjectType()
export class EntitiesResult {
  @Field(() => ID) id!: string;
  @Field(() => [TextEntity]) entities!: TextEntity[];
  @Field() model!: string;
}

@ObjectType()
export class KeyPhrase {
  @Field() phrase!: string;
  @Field(() => Float) score!: number;
}

@ObjectType()
export class KeyPhrasesResult {
  @Field(() => ID) id!: string;
  @Field(() => [KeyPhrase]) keyPhrases!: KeyPhrase[];
  @Field() model!: string;
}

@ObjectType()
export class LanguageGuess {
  @Field() language!: string;
  @Field() languageName!: string;
  @Field(() => Float) confidence!: number;
}

@ObjectType()
export class LanguageResult {
  @Field(() => ID) id!: string;
  @Field() language!: string;
  @Field() languageName!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => [LanguageGuess]) alternatives!: LanguageGuess[];
  @Field() model!: string;
}

@ObjectType()
export class SummarizeResult {
  @Field(() => ID) id!: string;
  @Field() summary!: string;
  @Field(() => Int) length!: number;
  @Field(() => Float) compressionRatio!: number;
  @Field() model!: string;
}
