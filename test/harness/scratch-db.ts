// A database of a test's own on the stack's PostgreSQL server (created and dropped by the test),
// for code that must run with no subgraph worker touching its tables.
import pg from 'pg';
import { stackDatabaseUrl } from './db.js';

export function scratchDatabase(prefix: string) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const on = (db: string) => stackDatabaseUrl().replace(/\/[^/?]*(\?.*)?$/, `/${db}$1`);
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: on('postgres') });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  return {
    url: () => on(name),
    create: () => admin(`create database ${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
