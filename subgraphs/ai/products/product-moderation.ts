// AI contributes `Product.moderation` to the catalog's Product entity: the text moderation of the
// product's name and description. The fields come from the catalog through federation
// (@requires), so the AI service keeps no copy of product data. A read counts as one text call
// against the app's plan, like POST /moderation/text, and raises no `moderation.flagged` webhook
// (reading a product is not submitting content).
import { Ctx, Directive, Field, FieldResolver, ID, Resolver, Root, ObjectType } from 'type-graphql';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { MODERATION_CATEGORIES, type ModerationCategory } from '../models/moderation.js';
import { MODERATION_MODEL, ModerationResult } from '../moderation/moderation.js';
import { admitText, runModel } from '../text/text.service.js';

@ObjectType('Product')
@Directive('@key(fields: "id")')
export class ProductRef {
  @Field(() => ID) id!: string;
  @Directive('@external') @Field() name!: string;
  @Directive('@external') @Field(() => String, { nullable: true }) description?: string | null;
}

/** The text moderated for a product: its name, then its description when it has one. */
export function productText(p: Pick<ProductRef, 'name' | 'description'>): string {
  return p.description ? `${p.name}\n${p.description}` : p.name;
}

@Resolver(() => ProductRef)
export class ProductModerationResolver {
  @Directive('@requires(fields: "name description")')
  @Directive('@cost(weight: 20)')
  @FieldResolver(() => ModerationResult, { description: "Text moderation of the product's name and description (every category; one text call of the plan)" })
  async moderation(@Root() p: ProductRef, @Ctx() ctx: AiContext): Promise<ModerationResult> {
    const text = productText(p);
    await admitText(ctx, text, null, 'product');
    const r = await runModel(ctx, 'moderate', { text, categories: [...MODERATION_CATEGORIES] as ModerationCategory[] });
    return { id: newId('mod'), ...r, model: MODERATION_MODEL };
  }
}

export const productReference = {
  Product: {
    __resolveReference(ref: ProductRef): ProductRef {
      return ref;
    },
  },
};
