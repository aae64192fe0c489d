// Records of an import file, streamed: a JSON array, NDJSON (one object a line) or CSV (a header
// row; `price.amount`-style headers nest; numbers and true/false become JSON values). A `.gz`
// suffix is decompressed on the way. Used by scripts/import.ts.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';

export type Format = 'json' | 'ndjson' | 'csv';

export function formatOf(file: string, given?: string): Format {
  if (given) {
    if (given === 'json' || given === 'ndjson' || given === 'csv') return given;
    throw new Error(`--format must be json, ndjson or csv (got ${given})`);
  }
  const name = file.replace(/\.gz$/, '').toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  throw new Error(`cannot tell the format of ${file} from its name: pass --format json|ndjson|csv`);
}

function lines(file: string): AsyncIterable<string> {
  const raw = createReadStream(file);
  return createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
}

/** One CSV line into fields (RFC 4180 quoting); undefined while a quoted field is still open. */
export function splitCsv(line: string): string[] | undefined {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return undefined;
  out.push(field);
  return out;
}

/** A CSV cell as a JSON value: numbers, true/false; empty cells are left out. */
function cellValue(v: string): unknown {
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

export function csvRecord(headers: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  headers.forEach((h, i) => {
    const v = cells[i];
    if (v === undefined || v === '') return;
    const path = h.split('.');
    let node = out;
    for (const p of path.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]] = cellValue(v);
  });
  return out;
}

/** Every record of the file, in order. */
export async function* records(file: string, format: Format): AsyncGenerator<Record<string, unknown>> {
  if (format === 'json') {
    const buf = await readFile(file);
    const parsed = JSON.parse((file.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : Array.isArray((parsed as { data?: unknown })?.data) ? (parsed as { data: unknown[] }).data : undefined;
    if (!list) throw new Error(`${file}: a JSON file must hold an array of objects (or { "data": [...] })`);
    yield* list as Record<string, unknown>[];
    return;
  }
  let headers: string[] | undefined;
  let pending = '';
  let n = 0;
  for await (const line of lines(file)) {
    n++;
    if (format === 'ndjson') {
      if (!line.trim()) continue;
      try {
        yield JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${file}:${n}: not a JSON object`);
      }
      continue;
    }
    const text = pending ? `${pending}\n${line}` : line;
    const cells = splitCsv(text);
    if (!cells) {
      pending = text;
      continue;
    }
    pending = '';
    if (!headers) headers = cells.map((h) => h.trim());
    else if (cells.some((c) => c !== '')) yield csvRecord(headers, cells);
  }
}

/** How many records the file holds (a first pass, for the ETA). */
export async function countRecords(file: string, format: Format): Promise<number> {
  let n = 0;
  for await (const _ of records(file, format)) n++;
  return n;
}
