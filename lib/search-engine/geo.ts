// Geo search on the `_geo` field ({ lat, lng }, numbers or numeric strings), as Meilisearch:
// `_geoRadius(lat, lng, metres)` filters, `_geoBoundingBox([lat, lng], [lat, lng])` filters (top-left,
// bottom-right), `_geoPoint(lat, lng):asc|desc` sorts. Distances are haversine on a sphere of radius
// 6,371,000 m. Per segment, points are kept sorted by latitude so a radius query only visits the
// latitude band it can reach (binary search), then checks the exact distance.
import { has, set, type Bitset } from './bitset.js';
import { lowerBound } from './sorted.js';

export const EARTH_RADIUS_M = 6_371_000;

export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLng = (lng2 - lng1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** { lat, lng } from a document's `_geo`, or null when absent or invalid (such documents have no location). */
export function geoOf(value: unknown): { lat: number; lng: number } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { lat, lng } = value as { lat?: unknown; lng?: unknown };
  const a = typeof lat === 'string' ? Number(lat) : lat;
  const b = typeof lng === 'string' ? Number(lng) : lng;
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (a < -90 || a > 90 || b < -180 || b > 180) return null;
  return { lat: a, lng: b };
}

export interface GeoIndex {
  lat: Float64Array;
  lng: Float64Array;
  docs: Int32Array;
}

export function buildGeo(points: { doc: number; lat: number; lng: number }[]): GeoIndex {
  points.sort((a, b) => a.lat - b.lat || a.doc - b.doc);
  return {
    lat: Float64Array.from(points, (p) => p.lat),
    lng: Float64Array.from(points, (p) => p.lng),
    docs: Int32Array.from(points, (p) => p.doc),
  };
}

export function mergeGeo(parts: GeoIndex[], alive: Bitset): GeoIndex {
  const points: { doc: number; lat: number; lng: number }[] = [];
  for (const p of parts) for (let i = 0; i < p.docs.length; i++) if (has(alive, p.docs[i])) points.push({ doc: p.docs[i], lat: p.lat[i], lng: p.lng[i] });
  return buildGeo(points);
}

/** Set in `out` the docs within `radius` metres of (lat, lng). */
export function radiusQuery(g: GeoIndex, lat: number, lng: number, radius: number, out: Bitset): void {
  const band = (radius / EARTH_RADIUS_M) * (180 / Math.PI);
  const from = lowerBound(g.lat, lat - band);
  const to = lowerBound(g.lat, lat + band + 1e-12);
  for (let i = from; i < to; i++) if (haversine(lat, lng, g.lat[i], g.lng[i]) <= radius) set(out, g.docs[i]);
}

/** Set in `out` the docs inside the box from top-left (lat1, lng1) to bottom-right (lat2, lng2); crosses the antimeridian when lng1 > lng2. */
export function boxQuery(g: GeoIndex, lat1: number, lng1: number, lat2: number, lng2: number, out: Bitset): void {
  const from = lowerBound(g.lat, lat2);
  const to = lowerBound(g.lat, lat1 + 1e-12);
  for (let i = from; i < to; i++) {
    const x = g.lng[i];
    const inside = lng1 <= lng2 ? x >= lng1 && x <= lng2 : x >= lng1 || x <= lng2;
    if (inside) set(out, g.docs[i]);
  }
}

/** Parses `_geoPoint(lat, lng):asc|desc`; null when `s` is not a geo sort. */
export function parseGeoPoint(s: string): { lat: number; lng: number; desc: boolean } | null {
  const m = /^_geoPoint\(\s*([^,\s)]+)\s*,\s*([^,\s)]+)\s*\)\s*:\s*(asc|desc)$/.exec(s.trim());
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, desc: m[3] === 'desc' };
}
