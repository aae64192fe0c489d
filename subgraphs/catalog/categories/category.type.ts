// The API shape of a category. `depth` is set by the tree query only; `children`, `productCount`
// and `products` are field resolvers (category.resolver.ts), batched per request.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { CategoryRow } from './category.entity.js';

@ObjectType('CategorySeo')
export class CategorySeoType {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
}

@ObjectType({ description: 'A node of the category tree' })
export class Category {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ID, { nullable: true, description: 'null for a root category' }) parentId?: string | null;
  @Field(() => Int, { description: 'order among siblings, 0 first' }) position!: number;
  @Field(() => CategorySeoType, { nullable: true }) seo?: CategorySeoType | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true, description: 'distance from the root (0): set by categoryTree only' }) depth?: number | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class CategoryPage {
  @Field(() => [Category]) items!: Category[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
}

export function toCategory(e: CategoryRow, depth?: number): Category {
  return Object.assign(new Category(), {
    id: e.id,
    name: e.name,
    slug: e.slug,
    description: e.description ?? null,
    parentId: e.parentId ?? null,
    position: e.position,
    seo: e.seo ?? null,
    metadata: e.metadata ?? null,
    depth: depth ?? null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  });
}
