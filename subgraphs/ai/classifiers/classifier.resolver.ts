import { Arg, Ctx, ID, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { ClassificationResult, Classifier, ClassifierTraining, ClassifyInput, CreateClassifierInput, TrainClassifierInput } from './classifier.types.js';
import * as classifiers from './classifier.service.js';

// Access (key, scope, registered user) and the plan's request rate are checked by the service.
@Resolver(() => Classifier)
export class ClassifierResolver {
  @Mutation(() => Classifier, { description: 'Create a custom classifier with its labels (scope ai:write)' })
  createClassifier(@Ctx() ctx: AiContext, @Arg('input', () => CreateClassifierInput) input: CreateClassifierInput): Promise<Classifier> {
    return classifiers.createClassifier(ctx, input);
  }

  @Directive('@cost(weight: 100)')
  @Mutation(() => ClassifierTraining, { description: 'Queue a training on examples (answers at once); classifier.trained announces the result (scope ai:write)' })
  trainClassifier(@Ctx() ctx: AiContext, @Arg('classifierId', () => ID) classifierId: string, @Arg('input', () => TrainClassifierInput) input: TrainClassifierInput): Promise<ClassifierTraining> {
    return classifiers.trainClassifier(ctx, classifierId, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => ClassificationResult, { description: 'Per-label probabilities of a text under the classifier\'s current model' })
  classify(@Ctx() ctx: AiContext, @Arg('classifierId', () => ID) classifierId: string, @Arg('input', () => ClassifyInput) input: ClassifyInput): Promise<ClassificationResult> {
    return classifiers.classify(ctx, classifierId, input.text);
  }

  @Query(() => Classifier, { description: 'A classifier of the calling app: status, model version, accuracy' })
  classifier(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<Classifier> {
    return classifiers.getClassifier(ctx, id);
  }

  @Query(() => [Classifier], { description: 'The classifiers of the calling app' })
  classifiers(@Ctx() ctx: AiContext): Promise<Classifier[]> {
    return classifiers.listClassifiers(ctx);
  }

  @Query(() => ClassifierTraining, { description: 'A training: status and, when succeeded, accuracy on its held-out split' })
  classifierTraining(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<ClassifierTraining> {
    return classifiers.getTraining(ctx, id);
  }
}
