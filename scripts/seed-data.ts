// The seed's records, derived from datasets/books.json: products keyed by the record id (the file
// has duplicate ISBNs, its ids are unique) and the search documents of the `books` index.
export interface Book {
  id: string;
  title: string;
  author: string;
  language?: string;
  publisher?: string;
  isbn13?: string;
  details?: { rating?: string; pages?: string; isbn?: string };
}

export type ProductAttributes = {
  name: string;
  sku: string;
  description: string;
  status: 'active';
  type: 'physical';
  price: { amount: number; currency: string };
  inventory: { quantity: number; track_stock: boolean };
  attributes: Record<string, unknown>;
};

export function bookProducts(books: Book[]): ProductAttributes[] {
  return books.map((b) => {
    const pages = Number(b.details?.pages) || 200;
    return {
      name: b.title,
      sku: `BOOK-${b.id}`,
      description: `${b.title} by ${b.author.replace(/\//g, ', ')}${b.publisher ? ` (${b.publisher})` : ''}.`,
      status: 'active',
      type: 'physical',
      price: { amount: 799 + (pages % 30) * 100, currency: 'USD' },
      inventory: { quantity: 10 + (pages % 40), track_stock: true },
      attributes: { author: b.author, language: b.language ?? null, pages, rating: Number(b.details?.rating) || null, isbn13: b.isbn13 ?? null },
    };
  });
}

export function bookDocuments(books: Book[]): Record<string, unknown>[] {
  return books.map((b) => ({ id: b.id, title: b.title, author: b.author, language: b.language, publisher: b.publisher, rating: Number(b.details?.rating) || null, pages: Number(b.details?.pages) || null }));
}
