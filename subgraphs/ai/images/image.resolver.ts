// Image analysis mutations (ai.md, Image analysis; moderation/image). Thin: each is one service call.
import { Arg, Ctx, Mutation, Query, Resolver, Directive } from 'type-graphql';
import { COCO_LABELS } from '../../../lib/vision/index.js';
import type { AiContext } from '../context.js';
import { ImageClassifyInput, ImageModerationInput, ObjectDetectInput, OcrInput } from './image.inputs.js';
import { ImageClassifyResult, ImageModerationResult, ObjectDetectResult, OcrResult } from './image.types.js';
import * as images from './image.service.js';
import { readText } from './ocr.service.js';

@Resolver()
export class ImageAnalysisResolver {
  @Directive('@cost(weight: 100)')
  @Mutation(() => ImageClassifyResult, { description: 'Labels of an image with confidence, from the COCO-80 object detector (80 labels; see imageLabelSet)' })
  imageClassify(@Ctx() ctx: AiContext, @Arg('input', () => ImageClassifyInput) input: ImageClassifyInput): Promise<ImageClassifyResult> {
    return images.classifyImage(ctx, input);
  }

  @Directive('@cost(weight: 100)')
  @Mutation(() => ObjectDetectResult, { description: 'Objects of the 80 COCO classes with bounding boxes in pixels (CenterNet)' })
  imageDetect(@Ctx() ctx: AiContext, @Arg('input', () => ObjectDetectInput) input: ObjectDetectInput): Promise<ObjectDetectResult> {
    return images.detectObjects(ctx, input);
  }

  @Directive('@cost(weight: 100)')
  @Mutation(() => OcrResult, { description: 'Text of an image: lines with confidence and boxes, language, orientation (PaddleOCR + Tesseract)' })
  imageOcr(@Ctx() ctx: AiContext, @Arg('input', () => OcrInput) input: OcrInput): Promise<OcrResult> {
    return readText(ctx, input);
  }

  @Directive('@cost(weight: 100)')
  @Mutation(() => ImageModerationResult, { description: 'Moderate an image: adult content (nsfwjs); violence and hate are reported unavailable' })
  moderateImage(@Ctx() ctx: AiContext, @Arg('input', () => ImageModerationInput) input: ImageModerationInput): Promise<ImageModerationResult> {
    return images.moderateImage(ctx, input);
  }

  @Query(() => [String], { description: 'The labels image classification and detection know: the 80 COCO object classes' })
  imageLabelSet(): string[] {
    return [...COCO_LABELS];
  }
}
