// Request shapes of the image endpoints (ai.md, Image analysis and Moderation). Images are passed
// by URL; the REST bodies are derived from these inputs.
import { Field, Float, InputType, Int } from 'type-graphql';

@InputType()
export class ImageClassifyInput {
  @Field({ description: 'http(s) URL of a JPEG, PNG, GIF or WebP image (at most 10 MiB)' }) imageUrl!: string;
  @Field(() => Int, { nullable: true, description: 'labels returned, 1–80 (default 5)' }) maxLabels?: number | null;
}

@InputType()
export class ObjectDetectInput {
  @Field({ description: 'http(s) URL of a JPEG, PNG, GIF or WebP image (at most 10 MiB)' }) imageUrl!: string;
  @Field(() => Float, { nullable: true, description: 'objects scoring below are dropped, 0–1 (default 0.28)' }) minConfidence?: number | null;
  @Field(() => Int, { nullable: true, description: 'at most this many objects, best first, 1–100 (default 20)' }) maxObjects?: number | null;
}

@InputType()
export class OcrInput {
  @Field({ description: 'http(s) URL of a JPEG, PNG, GIF or WebP image (at most 10 MiB)' }) imageUrl!: string;
  @Field(() => Boolean, { nullable: true, description: 'detect a page turned by 90, 180 or 270 degrees and read it upright (default false)' }) detectOrientation?: boolean | null;
}

@InputType()
export class ImageModerationInput {
  @Field({ description: 'http(s) URL of a JPEG, PNG, GIF or WebP image (at most 10 MiB)' }) imageUrl!: string;
  @Field(() => [String], { nullable: true, description: 'adult, violence, hate (all when absent)' }) categories?: string[] | null;
}
