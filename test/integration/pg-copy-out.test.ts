// lib/pg-copy-out.ts: the binary COPY reader against a real PostgreSQL (values that a hex select would
// round-trip the same), and the literal/integer guards the COPY statement is built with.
import pg from 'pg';
import { copyOutRows, integer, literal, parseCopyBinary } from '../../lib/pg-copy-out.js';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('lib/pg-copy-out', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterAll(() => pool.end());

  it('reads bytea, text and null fields as the stored bytes', async () => {
    const big = Buffer.alloc(3 * 2 ** 20 + 7);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
    const rows = await copyOutRows(pool, `select $$x$$::bytea, ${literal("it's")}::text, null::bytea union all select '\\x00ff'::bytea, 'b', null`);
    expect(rows).toHaveLength(2);
    expect(rows[0][0]!.toString()).toBe('x');
    expect(rows[0][1]!.toString()).toBe("it's");
    expect(rows[0][2]).toBeNull();
    expect([...rows[1][0]!]).toEqual([0, 255]);
    // a value spread over many socket reads
    const client = await pool.connect();
    try {
      await client.query('create temp table copy_big (data bytea)');
      await client.query('insert into copy_big values ($1)', [big]);
      const { to } = await import('pg-copy-streams');
      const parts: Buffer[] = [];
      for await (const p of client.query(to('copy (select data from copy_big) to stdout (format binary)'))) parts.push(p as Buffer);
      expect(parseCopyBinary(Buffer.concat(parts))[0][0]!.equals(big)).toBe(true);
    } finally {
      client.release();
    }
  });

  it('answers no rows for an empty select, and fails (releasing its connection) on a bad statement', async () => {
    expect(await copyOutRows(pool, 'select 1 where false')).toEqual([]);
    await expect(copyOutRows(pool, 'select nope')).rejects.toThrow(/nope/);
    expect(await copyOutRows(pool, 'select 2::int')).toHaveLength(1);
  });

  it('quotes literals so PostgreSQL reads back the very string, and refuses anything but an integer', async () => {
    const tricky = ["a'b", 'a\\b', "'; drop table x; --", 'ünï\\\'code', ''];
    const rows = await copyOutRows(pool, tricky.map((t, i) => `select ${integer(i)} as i, ${literal(t)}::text as t`).join(' union all '));
    const byIndex = [...rows].sort((a, b) => a[0]!.readInt32BE(0) - b[0]!.readInt32BE(0));
    expect(byIndex.map((r) => r[1]!.toString('utf8'))).toEqual(tricky);
    expect(integer(42)).toBe('42');
    expect(() => integer(1.5)).toThrow();
    expect(() => integer(Number.NaN)).toThrow();
    expect(() => parseCopyBinary(Buffer.from('not a copy stream at all'))).toThrow(/binary COPY/);
  });
});
