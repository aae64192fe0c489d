// Direct SQL on the test stack's database: for assertions on what is really stored (encryption
// at rest) and for moving clocks the API does not expose (expiring a transfer).
import pg from 'pg';
import { stack } from './client.js';

export function stackDatabaseUrl(): string {
  const env = stack().env;
  return env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/supergraph`;
}

export async function sql<T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: stackDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
