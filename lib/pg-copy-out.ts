// Large binary values out of PostgreSQL through `COPY (select …) TO STDOUT (FORMAT binary)`.
// A plain select returns bytea as hex text: the server encodes it, twice its size crosses the socket,
// node-pg turns it into a string and then back into bytes, ~60–100 MB/s on this machine. COPY in
// binary format sends the bytes as they are stored (5–6× faster measured on 16 MiB values), which is
// what reading a 500 MB engine snapshot at cold start needs (docs/search.md, "Cold start").
// COPY takes no bind parameters: the statement is built with `literal()` (strings) and checked integers.
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A string as a SQL literal: node-pg's own escaping (quotes doubled; a backslash makes it an E'' literal). */
export const literal = (s: string): string => pg.escapeLiteral(s);

/** An integer for a COPY statement (throws on anything else, so nothing but digits reaches the SQL). */
export function integer(n: number): string {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return String(n);
}

/** The rows of a COPY … TO STDOUT (FORMAT binary) output: each field's raw bytes, or null. */
export function parseCopyBinary(b: Buffer): (Buffer | null)[][] {
  if (b.length < 19 || !b.subarray(0, 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
  let at = 15;
  at += 4 + b.readInt32BE(at); // header extension
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const n = b.readInt16BE(at);
    at += 2;
    if (n === -1) return rows;
    const row: (Buffer | null)[] = [];
    for (let i = 0; i < n; i++) {
      const len = b.readInt32BE(at);
      at += 4;
      if (len === -1) row.push(null);
      else {
        row.push(b.subarray(at, at + len));
        at += len;
      }
    }
    rows.push(row);
  }
}

/** Run `copy (<select>) to stdout (format binary)` on a connection of the pool; its rows' raw fields. */
export async function copyOutRows(pool: pg.Pool, select: string): Promise<(Buffer | null)[][]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const stream = client.query(copyTo(`copy (${select}) to stdout (format binary)`));
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return parseCopyBinary(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  } catch (e) {
    broken = e as Error;
    throw e;
  } finally {
    // a connection whose COPY failed midway is not reused
    client.release(broken);
  }
}
