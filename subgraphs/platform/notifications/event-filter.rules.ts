// Which account events a team-chat webhook receives: a list of names and patterns. '*' is every
// event (also those added later), 'key.*' every event of one family, 'account.created' one event.
import { ACCOUNT_EVENT_NAMES } from '../event-types.js';

const FAMILIES = new Set(ACCOUNT_EVENT_NAMES.map((n) => n.split('.')[0]));

/** null when `pattern` is valid, else why not. */
export function checkEventPattern(pattern: string): string | null {
  if (pattern === '*') return null;
  if (pattern.endsWith('.*')) return FAMILIES.has(pattern.slice(0, -2)) ? null : `"${pattern}" names no event family (${[...FAMILIES].join(', ')})`;
  return (ACCOUNT_EVENT_NAMES as readonly string[]).includes(pattern) ? null : `"${pattern}" is not an account event (${ACCOUNT_EVENT_NAMES.join(', ')})`;
}

export function eventMatches(patterns: readonly string[], event: string): boolean {
  return patterns.some((p) => p === '*' || p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));
}
