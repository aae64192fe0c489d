// Search contributes `Product.searchDocuments` to the catalog's Product entity: the documents of the
// caller's indexes whose primary key is the product's id (an app that mirrors its catalogue into a
// search index keys the documents by product id). The product data itself stays in the catalog:
// the reference carries the id only.
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Db } from '../db.js';
import { IndexEntity } from '../indexes/index.entity.js';
import { rows } from '../db.js';
import { T } from '../sql.js';

@ObjectType('Product')
@Directive('@key(fields: "id")')
export class ProductRef {
  @Field(() => ID) id!: string;
}

@ObjectType({ description: 'A document of one of the caller\'s indexes whose primary key is a product\'s id' })
export class ProductSearchDocument {
  @Field() indexUid!: string;
  @Field(() => GraphQLJSONObject, { description: 'the document as stored' }) document!: Record<string, unknown>;
}

/**
 * The documents keyed by each of `productIds` in the caller's indexes: one statement for the
 * partition's indexes (tenant filter), one for the documents, whatever the number of products.
 */
export async function documentsByProductIds(ctx: { em: EntityManager; runtime: { pool: Db } }, productIds: readonly string[]): Promise<ProductSearchDocument[][]> {
  const indexes = await ctx.em.find(IndexEntity, {}, { fields: ['id', 'uid'], orderBy: { uid: 'asc' } });
  if (!indexes.length) return productIds.map(() => []);
  const uidOf = new Map(indexes.map((i) => [i.id, i.uid]));
  const found = await rows<{ index_id: string; doc_id: string; body: Record<string, unknown> }>(
    ctx.runtime.pool,
    `select index_id, doc_id, body from ${T.documents}
      where index_id = any($1::text[]) and doc_id = any($2::text[]) and not deleted`,
    [indexes.map((i) => i.id), [...productIds]],
  );
  return productIds.map((id) =>
    found
      .filter((r) => r.doc_id === id)
      .map((r) => ({ indexUid: uidOf.get(r.index_id)!, document: r.body }))
      .sort((a, b) => a.indexUid.localeCompare(b.indexUid)),
  );
}

