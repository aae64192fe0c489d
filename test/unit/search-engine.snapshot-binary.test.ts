// The binary snapshot stream (engine/snapshot-binary.ts) and its cutting into chunks
// (engine-registry/snapshot-store.ts `chunked`): any cut of the stream restores identical results;
// a damaged stream is refused, never half-read.
import { engineFactory, DEFAULT_SETTINGS, type Engine, type EngineSettings, type SearchRequest } from '../../lib/search-engine/index.js';
import { encodeSnapshot, KEEP_ARRAYS, SnapshotDecoder, SnapshotFormatError } from '../../lib/search-engine/snapshot-binary.js';
import { chunked } from '../../subgraphs/search/engine-registry/snapshot-store.js';

const SETTINGS: Partial<EngineSettings> = { searchableAttributes: ['t', 'long'], filterableAttributes: ['c', 'n', '_geo'], sortableAttributes: ['n'] };
const REQUESTS: SearchRequest[] = [
  { query: 'alpha bravo', facets: ['c', 'n'] },
  { query: 'charli', filter: 'n > 50', limit: 50 },
  { query: '', filter: 'c IN [alpha, charlie]', facets: ['c'], sort: ['n:desc'] },
  { query: 'hotell', attributesToHighlight: ['t'] },
  { query: '', filter: '_geoRadius(45, 90, 2000000)', limit: 40 },
];

function churned(): Engine {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, ...SETTINGS });
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  for (let batch = 0; batch < 8; batch++) {
    const docs = Array.from({ length: 700 }, () => {
      const id = rand(6000);
      return { id, t: Array.from({ length: 2 + rand(6) }, () => words[rand(words.length)]).join(' '), c: words[rand(3)], n: rand(100), _geo: { lat: rand(90), lng: rand(180) } };
    });
    e.addDocuments(docs, 'id');
    if (batch % 3 === 2) e.deleteDocuments(Array.from({ length: 300 }, () => String(rand(6000))));
  }
  // one document with a string past the header's limit (it travels as bytes)
  e.addDocuments([{ id: 'big', t: 'zulu', long: 'quetzal '.repeat(20000), c: 'alpha', n: 1 }], 'id');
  return e;
}

const results = (e: Engine) => REQUESTS.map((r) => e.search(r)).map(({ processingTimeMs: _, ...r }) => r);

function decode(pieces: Iterable<Uint8Array>): unknown {
  const d = new SnapshotDecoder();
  for (const p of pieces) d.push(p);
  return d.finish();
}

/** The stream as one buffer (small engines only: this is what production never does). */
const whole = (snapshot: unknown) => Buffer.concat([...encodeSnapshot(snapshot)]);

test('restored from pieces of random sizes, the engine answers identically', () => {
  const e = churned();
  const bytes = whole(e.toSnapshot(KEEP_ARRAYS));
  let seed = 3;
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 48271) % 2147483647;
    const n = 1 + (seed % 5000);
    pieces.push(bytes.subarray(at, at + n));
    at += n;
  }
  const r = engineFactory.fromSnapshot(decode(pieces), { ...DEFAULT_SETTINGS, ...SETTINGS });
  expect(r.size).toBe(e.size);
  expect(results(r)).toEqual(results(e));
  expect(r.getDocument('big')).toEqual(e.getDocument('big'));
});

test('cut into bounded chunks across typed arrays and document records, it restores identically', async () => {
  const e = churned();
  const chunks: Buffer[] = [];
  for await (const c of chunked(encodeSnapshot(e.toSnapshot(KEEP_ARRAYS)), Buffer.allocUnsafe(4096))) chunks.push(Buffer.from(c));
  expect(chunks.length).toBeGreaterThan(50);
  expect(chunks.slice(0, -1).every((c) => c.length === 4096)).toBe(true);
  expect(chunks.at(-1)!.length).toBeLessThanOrEqual(4096);
  const r = engineFactory.fromSnapshot(decode(chunks), { ...DEFAULT_SETTINGS, ...SETTINGS });
  expect(results(r)).toEqual(results(e));
  // and keeps accepting writes and deletes
  r.deleteDocuments(e.filterIds('c = alpha'));
  expect(r.filterIds('c = alpha')).toEqual([]);
});

test('a captured state is that moment: later writes to the engine are not in it', () => {
  const e = churned();
  const before = results(e);
  const captured = e.toSnapshot(KEEP_ARRAYS);
  e.addDocuments([{ id: 'late', t: 'alpha bravo charlie', c: 'alpha', n: 99 }], 'id');
  e.deleteDocuments(e.filterIds('c = charlie').slice(0, 50));
  e.compact();
  const r = engineFactory.fromSnapshot(decode(encodeSnapshot(captured)), { ...DEFAULT_SETTINGS, ...SETTINGS });
  expect(results(r)).toEqual(before);
});

test('any JSON-shaped value with typed arrays, long lists and long strings round-trips', () => {
  const v = {
    a: new Int32Array([1, -2, 3]),
    empty: new Float64Array(0),
    f: new Float32Array([0.5, 1.5]),
    u16: new Uint16Array([65535]),
    list: Array.from({ length: 2500 }, (_, i) => ({ i, s: `x${i}` })),
    strings: Array.from({ length: 600 }, (_, i) => `line\n${i}`),
    nested: [{ deep: new Uint32Array([7, 8]) }, null, 'short'],
    long: 'é'.repeat(70000),
  };
  const back = decode(encodeSnapshot(v)) as typeof v;
  expect(back).toEqual(v);
  expect(back.a).toBeInstanceOf(Int32Array);
  expect(back.nested[0]).toEqual({ deep: new Uint32Array([7, 8]) });
});

test('a damaged stream is refused: wrong magic, other version, truncated, bad record', () => {
  const bytes = whole(churned().toSnapshot(KEEP_ARRAYS));
  const bad = (b: Buffer) => () => decode([b]);
  const magic = Buffer.from(bytes);
  magic[0] ^= 0xff;
  expect(bad(magic)).toThrow(SnapshotFormatError);
  const version = Buffer.from(bytes);
  version.writeUInt16LE(1, 4);
  expect(bad(version)).toThrow(/format version 1/);
  expect(bad(bytes.subarray(0, bytes.length - 10))).toThrow(/ended early/);
  expect(bad(Buffer.concat([bytes, Buffer.from([1, 2, 3])]))).toThrow(SnapshotFormatError);
  const header = Buffer.from(bytes);
  header[13] = 0x7b; // '{' inside the header JSON
  expect(bad(header)).toThrow(SnapshotFormatError);
});
