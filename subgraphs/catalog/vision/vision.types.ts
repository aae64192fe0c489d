// The API shapes of object detection on a product file and of visual search (docs/catalog-images.md).
import { Arg, Field, Float, ID, Int, ObjectType, Directive } from 'type-graphql';
import { Product } from '../products/product.type.js';

@ObjectType({ description: 'A box in pixels of the image as displayed (EXIF orientation applied)' })
export class ProductImageBox {
  @Field(() => Int) x!: number;
  @Field(() => Int) y!: number;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
}

@ObjectType({ description: 'One object the detector found in a product file, with its suggested crop' })
export class DetectedProductObject {
  @Field(() => Int, { description: 'from 0, best first' }) objectIndex!: number;
  @Field({ description: 'a COCO-80 class (person, dog, bottle, laptop…)' }) class!: string;
  @Field(() => Float, { description: '0–1' }) confidence!: number;
  @Field(() => ProductImageBox) bbox!: ProductImageBox;
  @Field({ description: "the crop's public URL (the box widened by 5% a side, inside the image): a stored image file" }) suggestedCrop!: string;
  @Field(() => ProductImageBox, { description: 'the pixels the suggested crop covers' }) cropBox!: ProductImageBox;
}

@ObjectType({ description: 'The result of processing a product file (an image of the product)' })
export class ProductFileProcessing {
  @Field(() => ID, { description: 'this run' }) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { description: 'the product image processed' }) fileId!: string;
  @Field() processingMode!: string;
  @Field(() => Int) objectsDetected!: number;
  @Field(() => [DetectedProductObject]) detectionMetadata!: DetectedProductObject[];
  @Field({ description: 'completed' }) processingStatus!: string;
  @Field() processedAt!: Date;
  @Field(() => Int, { description: 'pixels of the image, as displayed' }) width!: number;
  @Field(() => Int) height!: number;
  @Field() model!: string;
  @Field(() => Int) processingTimeMs!: number;
}

@ObjectType({ description: 'Which object of the query photo a visual search was for' })
export class VisualSearchDetection {
  @Field(() => Int, { nullable: true, description: 'null: the whole photo, no object detected' }) objectIndex!: number | null;
  @Field(() => Int) totalObjects!: number;
  @Field(() => String, { nullable: true }) class!: string | null;
  @Field(() => Float, { nullable: true }) confidence!: number | null;
  @Field(() => ProductImageBox, { nullable: true }) bbox!: ProductImageBox | null;
}

@ObjectType({ description: 'A product found by visual search' })
export class VisualSearchHit {
  @Field(() => Product) product!: Product;
  @Field(() => Float, { description: 'cosine similarity of the image embeddings, 0–1 (the best of the product images and their objects)' }) similarityScore!: number;
  @Field(() => VisualSearchDetection) detectionMetadata!: VisualSearchDetection;
  @Field(() => ID) matchedImageId!: string;
  @Field() matchedImageUrl!: string;
  @Field({ description: '"image" (the whole product image matched best), "image turned 90°" (180°, 270°: a turned copy did), or the class of the object in it that did' }) matchedRegion!: string;
}

@ObjectType({ description: 'One search of a visual search: the whole photo, or one detected object of it' })
export class VisualSearchGroup {
  @Field(() => VisualSearchDetection) detection!: VisualSearchDetection;
  @Field(() => Int, { description: 'results of this search' }) total!: number;
  @Field(() => [ID], { description: 'the products found, best first' }) productIds!: string[];
}

/** Hits per visual search answered at most (per_page ≤ 20 × at most 5 objects), and the cost the gateway counts for `results`. */
export const VISUAL_SEARCH_MAX_RESULTS = 100;

@ObjectType({ description: 'Visual search: one search (single) or one search per detected object (multi_object); results grouped per search' })
export class VisualSearchResult {
  @Field({ description: 'single or multi_object' }) mode!: string;
  @Field() useObjectDetection!: boolean;
  @Field(() => Int) objectsDetected!: number;
  @Field(() => Int, { description: 'ms of the detector pass (one per search; 0 without detection)' }) averageDetectionTime!: number;
  @Field(() => Int) embeddingTimeMs!: number;
  @Field(() => Int) scanTimeMs!: number;
  @Field(() => Int) totalTimeMs!: number;
  @Field(() => Int, { description: 'indexed vectors compared per search (exact scan)' }) scanned!: number;
  @Field() model!: string;
  @Field(() => [VisualSearchGroup], { description: 'the searches, in object order' }) groups!: VisualSearchGroup[];
  /** every search's hits, grouped in object order, best first within a search */
  hits!: VisualSearchHit[];

  @Directive('@listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)')
  @Field(() => [VisualSearchHit], { description: "every search's results, grouped in object order (detectionMetadata.objectIndex), best first within a search" })
  results(@Arg('first', () => Int, { defaultValue: VISUAL_SEARCH_MAX_RESULTS }) first: number): VisualSearchHit[] {
    return this.hits.slice(0, Math.max(0, first));
  }
}

@ObjectType({ description: 'A signed grant to stream one visual-search photo into the object store (the REST bridge asks it)' })
export class VisualSearchUploadGrant {
  @Field() token!: string;
  @Field() expiresAt!: Date;
  @Field(() => Int) maxBytes!: number;
}
