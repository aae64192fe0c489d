import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { CollectionEntity } from './collection.entity.js';

@ObjectType('CollectionSeo')
export class CollectionSeoType {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
}

@ObjectType({ description: 'A manual (ordered product list) or automated (rules) collection' })
export class Collection {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() slug!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ description: 'manual or automated' }) type!: string;
  @Field({ description: 'active, draft or archived' }) status!: string;
  @Field(() => Date, { nullable: true }) startDate?: Date | null;
  @Field(() => Date, { nullable: true }) endDate?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'automated: { match: all|any, conditions: [{ field, operator, value }] }; null for manual' })
  rules?: Record<string, unknown> | null;
  @Field(() => CollectionSeoType, { nullable: true }) seo?: CollectionSeoType | null;
  @Field({ description: 'status active and the present inside [startDate, endDate)' }) active!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class CollectionPage {
  @Field(() => [Collection]) items!: Collection[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
}

@ObjectType()
export class CollectionProductsResult {
  @Field(() => Collection) collection!: Collection;
  @Field(() => Int, { description: 'products newly added by this call' }) added!: number;
}

export function isLive(c: Pick<CollectionEntity, 'status' | 'startDate' | 'endDate'>, now = new Date()): boolean {
  const t = now.getTime();
  return c.status === 'active' && (c.startDate == null || c.startDate.getTime() <= t) && (c.endDate == null || c.endDate.getTime() > t);
}

export function toCollection(e: CollectionEntity): Collection {
  return Object.assign(new Collection(), {
    id: e.id,
    name: e.name,
    slug: e.slug,
    description: e.description ?? null,
    type: e.type,
    status: e.status,
    startDate: e.startDate ?? null,
    endDate: e.endDate ?? null,
    rules: (e.rules as unknown as Record<string, unknown>) ?? null,
    seo: e.seo ?? null,
    active: isLive(e),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  });
}
