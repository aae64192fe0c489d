// Path matching, compiled once at start. A request resolves to the most specific route of its
// method (static segments beat `:params` position by position, so `/v1/products/search` would win
// over `/v1/products/:id`); a path that exists only under other methods is a 405 with Allow.
export interface RouteShape {
  method: string;
  path: string;
}

type Segment = { kind: 'static'; value: string } | { kind: 'param'; name: string };

interface Compiled<T> {
  entry: T;
  segments: Segment[];
}

export type MatchResult<T> =
  | { kind: 'match'; entry: T; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[]; entries: T[] }
  | { kind: 'not_found' }
  | { kind: 'bad_path' };

export interface Router<T> {
  match(method: string, path: string): MatchResult<T>;
}

function split(path: string): string[] {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return trimmed.split('/').filter((s, i) => i > 0 || s !== '');
}

export function compileRouter<T extends RouteShape>(entries: readonly T[]): Router<T> {
  const seen = new Set<string>();
  const compiled: Compiled<T>[] = entries.map((entry) => {
    const segments: Segment[] = split(entry.path).map((s) => (s.startsWith(':') ? { kind: 'param', name: s.slice(1) } : { kind: 'static', value: s }));
    const key = `${entry.method} ${segments.map((s) => (s.kind === 'param' ? ':' : s.value)).join('/')}`;
    if (seen.has(key)) throw new Error(`duplicate route ${entry.method} ${entry.path}`);
    seen.add(key);
    return { entry, segments };
  });
  // Most specific first: compare segment by segment, static before param, then the shorter first.
  // The length decides ties so the order is total: without it a short path "equal" to two longer
  // ones that differ made the comparison inconsistent, and the sort could put `/v1/products/:id`
  // before `/v1/products/search` depending on the table's size.
  compiled.sort((a, b) => {
    const n = Math.min(a.segments.length, b.segments.length);
    for (let i = 0; i < n; i++) {
      const d = (a.segments[i].kind === 'static' ? 0 : 1) - (b.segments[i].kind === 'static' ? 0 : 1);
      if (d) return d;
    }
    return a.segments.length - b.segments.length;
  });

  const byLength = new Map<number, Compiled<T>[]>();
  for (const c of compiled) {
    const list = byLength.get(c.segments.length) ?? [];
    list.push(c);
    byLength.set(c.segments.length, list);
  }

  return {
    match(method, path) {
      let parts: string[];
      try {
        parts = split(path).map((p) => decodeURIComponent(p));
      } catch {
        return { kind: 'bad_path' }; // malformed percent-encoding
      }
      const others: T[] = [];
      for (const c of byLength.get(parts.length) ?? []) {
        const params = matchSegments(c.segments, parts);
        if (!params) continue;
        if (c.entry.method === method) return { kind: 'match', entry: c.entry, params };
        others.push(c.entry);
      }
      if (!others.length) return { kind: 'not_found' };
      return { kind: 'method_not_allowed', allow: [...new Set(others.map((e) => e.method))].sort(), entries: others };
    },
  };
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.kind === 'static') {
      if (s.value !== parts[i]) return undefined;
    } else {
      if (parts[i] === '') return undefined;
      params[s.name] = parts[i];
    }
  }
  return params;
}
