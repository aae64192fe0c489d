// Which events an endpoint receives: a list of names and patterns. '*' is every event (also those
// added later), 'key.*' every event of one family, 'index.created' one event. The same rule runs
// in SQL when deliveries are written (outbox.ts), so what a subscriber sees is what this says.

/** null when `pattern` names a known event (or, with patterns allowed, a family or '*'), else why not. */
export function checkEventPattern(pattern: string, known: readonly string[], patterns: boolean): string | null {
  if (patterns && pattern === '*') return null;
  if (patterns && pattern.endsWith('.*')) {
    const families = [...new Set(known.map((n) => n.split('.')[0]))];
    return families.includes(pattern.slice(0, -2)) ? null : `"${pattern}" names no event family (${families.join(', ')})`;
  }
  return known.includes(pattern) ? null : `"${pattern}" is not one of ${known.join(', ')}`;
}

export function eventMatches(patterns: readonly string[], event: string): boolean {
  return patterns.some((p) => p === '*' || p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));
}

/** The family pattern an event also matches under ('index.created' → 'index.*'). */
export function familyPattern(event: string): string {
  return `${event.split('.')[0]}.*`;
}
