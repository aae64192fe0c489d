// Which account events a team-chat webhook receives: a list of names and patterns. '*' is every
// event (also those added later), 'key.*' every event of one family, 'account.created' one event.
// The rule is lib/webhooks' (events.ts), bound to the account events.
import { ACCOUNT_EVENT_NAMES } from '../../../lib/events.js';
import { checkEventPattern as check } from '../../../lib/webhooks/index.js';

export { eventMatches } from '../../../lib/webhooks/index.js';

/** null when `pattern` is valid, else why not. */
export function checkEventPattern(pattern: string): string | null {
  const problem = check(pattern, ACCOUNT_EVENT_NAMES, true);
  return problem && pattern !== '*' && !pattern.endsWith('.*') ? `"${pattern}" is not an account event (${ACCOUNT_EVENT_NAMES.join(', ')})` : problem;
}
