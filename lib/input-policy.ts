// The input policy of the edges (REST bridge and gateway): what a request may contain before any
// service code sees it. One module, applied once per request by both edges (docs/operations.md,
// "Hostile input"):
//  - strings (path segments, query values, JSON keys and values) with a NUL character or a lone
//    UTF-16 surrogate are refused: PostgreSQL cannot store either, and nothing legitimate needs them;
//  - JSON nesting deeper than MAX_JSON_DEPTH is refused before parsing (a linear byte scan), so a
//    1 MiB body of brackets never reaches JSON.parse or a recursive walker;
//  - an object with more than MAX_OBJECT_KEYS keys is refused (bounds per-key work downstream);
//  - the keys __proto__, constructor and prototype are refused at any depth (prototype pollution).
// Each refusal is a 400 BAD_REQUEST naming the offending parameter. The work is linear in the
// request's size and stops at the first refusal.
import { DomainError } from './errors.js';
import { stringEnd } from './json-text.js';

export const MAX_JSON_DEPTH = 32;
export const MAX_OBJECT_KEYS = 10_000;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a string is refused, or undefined when it is acceptable. */
export function badStringReason(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain a NUL character';
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) return 'must not contain a lone UTF-16 surrogate';
  return undefined;
}

function refuse(parameter: string, reason: string): never {
  throw new DomainError('BAD_REQUEST', `${parameter || 'the request body'} ${reason}`, parameter ? { parameter } : {});
}

/** Throws BAD_REQUEST naming `parameter` when `s` has a NUL or a lone surrogate. */
export function checkString(s: string, parameter: string): void {
  const reason = badStringReason(s);
  if (reason) refuse(parameter, reason);
}

/**
 * Throws BAD_REQUEST when the JSON text nests deeper than `max` (objects and arrays), without
 * parsing it. Strings are skipped whole (escapes included): their closing quote is found by
 * indexOf, so the loop visits only the text between strings (most of a document body is strings).
 * O(length), no allocation.
 */
export function checkJsonDepth(text: string, parameter = '', max = MAX_JSON_DEPTH): void {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i < 0) return; // unterminated: JSON.parse refuses it
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) refuse(parameter, `nests deeper than ${max} levels`);
    } else if (c === 125 || c === 93) depth--;
  }
}

/** Joins a path for messages and `parameter`: attributes.name, items[2], filter[status]. */
function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** A string badStringReason refuses (the same test, without building the reason). */
function badString(s: string): boolean {
  return s.includes('\u0000') || !(s as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Whether checkJsonValue accepts `value`: the same tests, allocating nothing per value (no path, no
 * stack entry object), so a 1 MB body of accepted JSON is walked cheaply; the paths are built only
 * to name a refusal.
 */
function acceptable(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === 'string') {
      if (badString(v)) return false;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        values.push(v[i]);
        depths.push(depth + 1);
      }
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > MAX_OBJECT_KEYS) return false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (FORBIDDEN_KEYS.has(k) || badString(k)) return false;
      values.push((v as Record<string, unknown>)[k]);
      depths.push(depth + 1);
    }
  }
  return true;
}

/**
 * Walks a parsed JSON value (iteratively: depth was capped before parsing, but a value built in
 * code may not have been) and throws BAD_REQUEST for the first bad string, forbidden key, object
 * with too many keys, or nesting past MAX_JSON_DEPTH. `prefix` names the value (e.g. `name` for a
 * body attribute); `rename` maps a path to the name the client knows (e.g. strips `data.attributes.`).
 */
export function checkJsonValue(value: unknown, prefix = '', rename: (path: string) => string = (p) => p): void {
  if (acceptable(value)) return;
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: prefix, depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const reason = badStringReason(v);
      if (reason) refuse(rename(path), reason);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) refuse(rename(path), `nests deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > MAX_OBJECT_KEYS) refuse(rename(path), `has ${keys.length} keys; at most ${MAX_OBJECT_KEYS} are accepted`);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      const kp = childPath(path, k);
      if (FORBIDDEN_KEYS.has(k)) refuse(rename(kp), `is not an accepted key (${k} is refused everywhere)`);
      const reason = badStringReason(k);
      if (reason) refuse(rename(path), `has a key that ${reason}`);
      stack.push({ v: (v as Record<string, unknown>)[k], path: kp, depth: depth + 1 });
    }
  }
}

/** Depth check, parse and walk of a JSON text; a parse failure is INVALID_JSON. */
export function parseCheckedJson(text: string, rename?: (path: string) => string): unknown {
  checkJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('INVALID_JSON', 'The request body is not valid JSON');
  }
  checkJsonValue(value, '', rename);
  return value;
}

/** Path parameters (already percent-decoded): each named by its route name. */
export function checkPathParams(params: Record<string, string>): void {
  for (const [name, v] of Object.entries(params)) checkString(v, name);
}

/**
 * A raw query string: every name and value as decoded, named as the client wrote it (`filter[status]`).
 * Malformed percent-encoding decodes to U+FFFD (URLSearchParams), which is acceptable.
 */
export function checkQueryString(search: string): void {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  let n = 0;
  for (const [k, v] of params) {
    if (++n > MAX_OBJECT_KEYS) throw new DomainError('BAD_REQUEST', `The query string has more than ${MAX_OBJECT_KEYS} parameters`);
    const keyReason = badStringReason(k);
    if (keyReason) throw new DomainError('BAD_REQUEST', `A query parameter name ${keyReason}`);
    checkString(v, k);
  }
}

/**
 * Requests node:http refuses before any handler runs (a URL or headers over its 16 KiB limit, a
 * malformed request line) get a JSON error body too, not Node's bare status line.
 */
export function answerClientErrorsWithJson(server: import('node:http').Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: import('node:stream').Duplex) => {
    if (!socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const message = tooLarge ? 'The request line and headers exceed 16 KiB' : 'The HTTP request is malformed';
    const body = JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST', status } }] });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
