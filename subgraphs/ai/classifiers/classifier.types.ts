import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType()
export class CreateClassifierInput {
  @Field({ description: '1 to 200 characters' }) name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String], { description: '2 to 100 distinct labels' }) labels!: string[];
}

@InputType()
export class TrainingExampleInput {
  @Field() text!: string;
  @Field() label!: string;
}

@InputType()
export class TrainClassifierInput {
  @Field(() => [TrainingExampleInput], { description: '2 to 10,000 examples, at least two labels; each label one of the classifier\'s' }) examples!: TrainingExampleInput[];
}

@InputType()
export class ClassifyInput {
  @Field() text!: string;
}

@ObjectType()
export class Classifier {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String]) labels!: string[];
  @Field({ description: 'untrained, training, trained, failed' }) status!: string;
  @Field(() => Int, { description: 'the current model\'s version, 0 without one' }) modelVersion!: number;
  @Field(() => Float, { nullable: true, description: 'accuracy of the current model\'s training on its held-out split' }) accuracy?: number | null;
  @Field(() => Date, { nullable: true }) trainedAt?: Date | null;
  @Field() createdAt!: Date;
}

@ObjectType()
export class ClassifierTraining {
  @Field(() => ID) id!: string;
  @Field(() => ID) classifierId!: string;
  @Field({ description: 'queued, running, succeeded, failed' }) status!: string;
  @Field(() => Int) examples!: number;
  @Field(() => Float, { nullable: true, description: 'share of held-out examples (every fifth of each label with 5 or more) the model trained on the rest got right' }) accuracy?: number | null;
  @Field(() => Int, { nullable: true }) trainExamples?: number | null;
  @Field(() => Int, { nullable: true }) heldOutExamples?: number | null;
  @Field(() => Int, { nullable: true, description: 'the model version this training produced' }) modelVersion?: number | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
}

@ObjectType()
export class Prediction {
  @Field() label!: string;
  @Field(() => Float) confidence!: number;
}

@ObjectType()
export class ClassificationResult {
  @Field(() => ID) id!: string;
  @Field(() => [Prediction], { description: 'every label with its probability, best first' }) predictions!: Prediction[];
  @Field(() => Int) modelVersion!: number;
  @Field() model!: string;
}
