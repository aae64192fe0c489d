// Response shapes of the image endpoints. Boxes are in pixels of the image as a viewer shows it
// (EXIF orientation applied); `width`/`height` give that size.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class BoundingBox {
  @Field(() => Int) x!: number;
  @Field(() => Int) y!: number;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
}

@ObjectType()
export class ImageLabel {
  @Field() label!: string;
  @Field(() => Float) confidence!: number;
}

@ObjectType()
export class ImageClassifyResult {
  @Field(() => ID) id!: string;
  @Field(() => [ImageLabel], { description: 'best first' }) labels!: ImageLabel[];
  @Field({ description: 'the labels the model knows: coco-80 (the 80 COCO object classes, listed by imageLabelSet)' }) labelSet!: string;
  @Field() model!: string;
}

@ObjectType()
export class DetectedObject {
  @Field() label!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => BoundingBox) boundingBox!: BoundingBox;
}

@ObjectType()
export class ObjectDetectResult {
  @Field(() => ID) id!: string;
  @Field(() => [DetectedObject], { description: 'best first' }) objects!: DetectedObject[];
  @Field(() => Int, { description: 'image width in pixels (the boxes are in these pixels)' }) width!: number;
  @Field(() => Int) height!: number;
  @Field() model!: string;
}

@ObjectType()
export class OcrBlock {
  @Field({ description: 'one line of text' }) text!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => BoundingBox, { description: 'axis-aligned box around the line, in pixels of the image as sent' }) boundingBox!: BoundingBox;
  @Field(() => Float, { description: 'slope of the line in degrees (counter-clockwise positive)' }) angle!: number;
}

@ObjectType()
export class OcrResult {
  @Field(() => ID) id!: string;
  @Field({ description: 'every line, top to bottom, joined by newlines' }) text!: string;
  @Field(() => [OcrBlock]) blocks!: OcrBlock[];
  @Field(() => String, { nullable: true, description: 'ISO 639-1 code of the text (fastText lid.176), null without text' }) language!: string | null;
  @Field(() => Int, { description: 'clockwise degrees (0, 90, 180, 270) the page was turned; 0 unless detect_orientation' }) orientation!: number;
  @Field() model!: string;
}

@ObjectType()
export class ImageModerationCategory {
  @Field() flagged!: boolean;
  @Field(() => Float, { nullable: true, description: 'null when no method exists for the category (available false)' }) score!: number | null;
  @Field({ description: 'false: no offline model judges this category; it is not assessed' }) available!: boolean;
}

@ObjectType()
export class ImageModerationCategories {
  @Field(() => ImageModerationCategory, { nullable: true }) adult?: ImageModerationCategory;
  @Field(() => ImageModerationCategory, { nullable: true }) violence?: ImageModerationCategory;
  @Field(() => ImageModerationCategory, { nullable: true }) hate?: ImageModerationCategory;
}

@ObjectType()
export class ImageModerationResult {
  @Field(() => ID) id!: string;
  @Field() flagged!: boolean;
  @Field(() => ImageModerationCategories, { description: 'The requested categories only' }) categories!: ImageModerationCategories;
  @Field({ description: 'allow, review (an assessed score >= 0.5) or block (>= 0.8); unassessed categories do not count' }) action!: string;
  @Field(() => [String], { description: 'requested categories that were not assessed (no offline model)' }) unavailableCategories!: string[];
  @Field() model!: string;
}
