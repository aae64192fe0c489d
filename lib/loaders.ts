// DataLoader shapes beyond the library's own, shared by the subgraphs' modules.
import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';

/**
 * A DataLoader whose primed values can also be read at once. A list that read a relation in its own
 * statement primes that relation's loader; the field resolver then calls `loadNow(id)`, which answers
 * synchronously for a primed key (graphql-js keeps the page's objects on its synchronous path: no
 * promise per field and object) and is `load(id)` otherwise.
 */
export class PrimedLoader<K, V> extends DataLoader<K, V> {
  private readonly primed = new Map<K, V>();

  override prime(key: K, value: V | PromiseLike<V> | Error): this {
    // an error is not kept for loadNow: load() answers it at the field's path as any loader error
    if (!(value instanceof Error) && !isPromiseLike(value) && !this.primed.has(key)) this.primed.set(key, value);
    return super.prime(key, value);
  }

  override clear(key: K): this {
    this.primed.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.primed.clear();
    return super.clearAll();
  }

  /** The primed value at once, else `load(key)`. */
  loadNow(key: K): V | Promise<V> {
    return this.primed.has(key) ? (this.primed.get(key) as V) : this.load(key);
  }
}

function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * Loaders that take arguments besides the key (a limit, a currency): one loader per distinct
 * argument set, made on first use and kept for the request. `keyOf` gives the set's identity.
 */
export function loaderFamily<A, L>(keyOf: (args: A) => string, make: (args: A) => L): (args: A) => L {
  const made = new Map<string, L>();
  return (args) => {
    const key = keyOf(args);
    let l = made.get(key);
    if (!l) made.set(key, (l = make(args)));
    return l;
  };
}

/** `f` of a value that may still be a promise (loadNow's answer), synchronously when it is not. */
export function mapNow<T, U>(v: T | Promise<T>, f: (t: T) => U): U | Promise<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/**
 * The rows of a child table per parent id (a product's variants, categories, images), which a list of
 * parents can read in its own statement instead: `column()` is the select-list expression of one
 * parent's rows as a JSON array (the batch's rows, in its order), `primeRows(id, rows)` maps such an
 * array with the batch's mapper and primes the loader with it.
 */
export class ChildRowsLoader<V> extends PrimedLoader<string, V[]> {
  constructor(
    batch: DataLoader.BatchLoadFn<string, V[]>,
    private readonly json: { column: () => string; fromRow: (r: Record<string, unknown>) => V },
  ) {
    super(batch);
  }

  /** One parent's rows as a JSON array, in the statement of a list of parents. */
  column(): string {
    return this.json.column();
  }

  primeRows(id: string, rows: readonly Record<string, unknown>[]): void {
    this.prime(id, rows.map(this.json.fromRow));
  }

  /** A `first`-limited list field (`Product.variants(first:)`): the parent's first rows, mapped; at once when primed. */
  firstNow<U>(id: string, first: number, f: (row: V) => U): U[] | Promise<U[]> {
    return mapNow(this.loadNow(id), (rows) => rows.slice(0, Math.max(0, first)).map((r) => f(r)));
  }
}

/** The row of each key (null for a key with none), in the keys' order: a batch's answer by id. */
export function oneByKey<T, K>(keys: readonly K[], rows: readonly T[], keyOf: (r: T) => K): (T | null)[] {
  const m = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => m.get(k) ?? null);
}

/** The rows of each key (empty for a key with none), in the keys' order and the rows' own order. */
export function groupRows<T>(keys: readonly string[], rows: readonly T[], keyOf: (r: T) => string): T[][] {
  const m = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const r of rows) m.get(keyOf(r))?.push(r);
  return keys.map((k) => m.get(k)!);
}

/**
 * A DataLoader of the entity row whose `field` equals each key (null for none), one `em.find` a batch
 * (`field in keys`, and `where`), through the EntityManager's filters: a row of another tenant loads
 * as null. The aggregates' `xById` / `xByUrlId` loaders.
 */
export function rowLoader<T extends object>(em: EntityManager, entity: EntityClass<T>, field: keyof T & string, where: FilterQuery<T> = {}): DataLoader<string, T | null> {
  return new DataLoader(async (keys) => {
    // the key field's condition first, as the loaders wrote it by hand (the same SQL)
    const query = { [field]: { $in: [...keys] }, ...(where as object) } as unknown as FilterQuery<NoInfer<T>>;
    const rows = await em.find(entity, query);
    return oneByKey(keys, rows, (r) => r[field] as unknown as string);
  });
}
