import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType()
export class EmbeddingsInput {
  @Field(() => [String], { description: '1 to 64 texts' }) inputs!: string[];
  @Field(() => String, { nullable: true, description: 'An installed model (embeddingModels); glove-sif-100d when absent' }) model?: string | null;
}

@InputType()
export class SimilarityInput {
  @Field() source!: string;
  @Field(() => [String], { description: '1 to 64 texts, one score each' }) targets!: string[];
  @Field(() => String, { nullable: true }) model?: string | null;
}

@ObjectType()
export class Embedding {
  @Field(() => Int) index!: number;
  @Field(() => [Float]) embedding!: number[];
  @Field(() => Int) dimensions!: number;
}

@ObjectType()
export class EmbeddingUsage {
  @Field(() => Int, { description: 'Tokens the model read: known words for glove-sif-100d, words for hashed-ngrams-384, WordPiece tokens with [CLS]/[SEP] for ONNX models' }) tokens!: number;
}

@ObjectType()
export class EmbeddingsResult {
  @Field(() => ID) id!: string;
  @Field(() => [Embedding]) embeddings!: Embedding[];
  @Field() model!: string;
  @Field(() => EmbeddingUsage) usage!: EmbeddingUsage;
}

@ObjectType()
export class Similarity {
  @Field(() => Int) index!: number;
  @Field(() => Float, { description: 'Cosine similarity, -1 to 1' }) score!: number;
}

@ObjectType()
export class SimilarityResult {
  @Field(() => ID) id!: string;
  @Field(() => [Similarity]) similarities!: Similarity[];
  @Field() model!: string;
  @Field(() => EmbeddingUsage) usage!: EmbeddingUsage;
}

@ObjectType()
export class EmbeddingModel {
  @Field() name!: string;
  @Field({ description: 'builtin or onnx' }) kind!: string;
  @Field(() => Int, { nullable: true, description: 'Known once the model has run' }) dimensions?: number | null;
}
