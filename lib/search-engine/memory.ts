// An estimate of the memory one engine holds, for the search service's memory budget. Three parts:
//  - typed arrays (segments, field and geo indexes, liveness, vectors): their exact byteLength;
//  - strings and maps (dictionaries, facet values, the id map): counted per entry, at the sizes V8
//    gives short strings and map entries (STRING_BYTES, PER_DOC_BYTES);
//  - documents: the JSON length of up to SAMPLE live documents, spread over the id range, times the
//    live count. V8 holds a parsed JSON document in about as many heap bytes as its JSON text
//    (measured on the Debian corpus: 14.9 MB of JSON took 13.9 MB of heap, factor 0.94), so the JSON
//    length stands for the heap bytes.
// Calibrated against process.memoryUsage() (heapUsed + arrayBuffers) around building an engine:
// see docs/operations.md (memory budget).
import { has } from './bitset.js';
import type { FieldIndex } from './field-index.js';
import type { Segment } from './segment.js';
import type { EngineState } from './state.js';

/** a dictionary term or facet value: header plus one byte per (Latin-1) character, rounded */
const STRING_BYTES = 32;
/** per live document: its id-map entry, external id string and array slots */
const PER_DOC_BYTES = 120;
const SAMPLE = 64;

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
  let n = s.docIds.byteLength + s.termStart.byteLength + s.pDocs.byteLength + s.pPos.byteLength + s.positions.byteLength + s.lens.byteLength;
  n += s.terms.length * STRING_BYTES;
  for (const f of s.fields.values()) n += fieldBytes(f);
  if (s.geo) n += s.geo.lat.byteLength + s.geo.lng.byteLength + s.geo.docs.byteLength;
  return n;
}

/** JSON bytes of the live documents, from a sample of at most SAMPLE of them. */
export function documentBytes(e: Pick<EngineState, 'docs' | 'alive' | 'nextId'>, live: number): number {
  if (!live) return 0;
  const step = Math.max(1, Math.floor(e.nextId / SAMPLE));
  let bytes = 0;
  let seen = 0;
  for (let id = 0; id < e.nextId && seen < SAMPLE; id += step) {
    if (!has(e.alive, id)) continue;
    bytes += JSON.stringify(e.docs[id]).length;
    seen++;
  }
  // a sparse index (most sampled ids dead): take the first live ones instead
  for (let id = 0; id < e.nextId && seen === 0; id++) {
    if (!has(e.alive, id)) continue;
    bytes += JSON.stringify(e.docs[id]).length;
    seen++;
  }
  return seen ? Math.round((bytes / seen) * live) : 0;
}

/** Estimated bytes held by an engine (see the header for what is counted and how). */
export function engineBytes(e: EngineState, live: number): number {
  let n = e.alive.byteLength + live * PER_DOC_BYTES + documentBytes(e, live);
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
