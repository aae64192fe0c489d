import pg from 'pg';
import { stop } from './spawn.js';

export default async function globalTeardown(): Promise<void> {
  const s = (globalThis as any).__STACK__;
  if (!s) return;
  await stop(s.child);
  if (s.dropDatabase) {
    const admin = new pg.Client({ connectionString: s.dropDatabase.admin });
    await admin.connect();
    await admin.query(`drop database if exists ${s.dropDatabase.name} with (force)`);
    await admin.end();
  }
}
