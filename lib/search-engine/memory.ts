// An estimate of the memory one engine holds, for the search service's memory budget. Three parts:
//  - typed arrays (segments, field and geo indexes, liveness, vectors): their exact byteLength;
//  - strings and maps (dictionaries, facet values, the external ids): counted per entry, at the sizes V8
//    gives short strings and map entries (STRING_BYTES, PER_DOC_BYTES);
//  - documents: the document store's pages (deflated bodies, doc-store.ts) and the ranking columns
//    (columns.ts), exactly, plus their string values estimated;
//  - per engine: the query scratch arrays (match.ts, exactly: 64 KiB, plus ~10 B per document for each
//    word of the longest query so far) and PER_ENGINE_BYTES for the objects around the arrays (many
//    small indexes: 1,000 documents are ~1 MB, so these are 10 % of it), and the union of the
//    segments' dictionaries (dictionary.ts: one reference per term, the strings are the segments' unless
//    taken from a snapshot).
// Calibrated against process.memoryUsage() (heapUsed + arrayBuffers) around building an engine:
// see docs/operations.md (memory budget).
import type { FieldIndex } from './field-index.js';
import type { Segment } from './segment.js';
import type { EngineState } from './state.js';
import type { DocStore } from './doc-store.js';
import type { IdTable } from './id-table.js';

/** a dictionary term or facet value: header plus one byte per (Latin-1) character, rounded */
export const STRING_BYTES = 32;
/** per live document: its external id string and array slots (the id table's slots are counted exactly) */
const PER_DOC_BYTES = 80;
/** per engine, whatever its size: settings, analyzer, synonyms, maps and objects around the arrays */
const PER_ENGINE_BYTES = 16 * 1024;

function fieldBytes(f: FieldIndex): number {
  return (
    f.strStart.byteLength +
    f.strDocs.byteLength +
    f.numValues.byteLength +
    f.numDocs.byteLength +
    f.exists.byteLength +
    f.nulls.byteLength +
    f.empties.byteLength +
    (f.strValues.length + f.strDisplay.length) * STRING_BYTES
  );
}

export function segmentBytes(s: Segment): number {
  let n = s.docIds.byteLength + s.termStart.byteLength + s.pDocs.byteLength + s.pBase.byteLength + s.pRel.byteLength + s.positions.byteLength + s.lens.byteLength;
  n += s.terms.length * STRING_BYTES;
  for (const f of s.fields.values()) n += fieldBytes(f);
  if (s.geo) n += s.geo.lat.byteLength + s.geo.lng.byteLength + s.geo.docs.byteLength;
  return n;
}

/** Estimated bytes held by an engine (see the header for what is counted and how). */
export function engineBytes(e: EngineState & { store: DocStore; idMap: IdTable }, live: number): number {
  let n = PER_ENGINE_BYTES + e.alive.byteLength + live * PER_DOC_BYTES + e.idMap.bytes() + e.store.bytes() + e.columns.bytes() + e.scratch.bytes() + e.dictionary.bytes(STRING_BYTES);
  for (const s of e.segments) n += segmentBytes(s);
  const v = e.vectors;
  if (v) {
    n += v.data.byteLength + v.present.byteLength;
    for (const nz of v.nonZero) if (nz) n += nz.byteLength;
    // graph links: about 2·m neighbours on level 0 per node, as JS number arrays (8 bytes each)
    if (v.graph) n += v.graph.size * 2 * v.graph.params.m * 8;
  }
  return n;
}
