// subgraphs/platform/user-access/user-access.rules.ts: the state machine move by move, and roles.
import { DomainError } from '../../lib/errors.js';
// INVALID_STATE_TRANSITION is the platform's code: registered by its error-codes module, as the platform process does
import '../../subgraphs/platform/error-codes.js';
import {
  ACCESS_ACTIONS,
  ACCESS_ROLES,
  ACCESS_STATUSES,
  canTransition,
  grantsAccess,
  nextStatus,
  strongerRole,
  type AccessAction,
  type AccessStatus,
} from '../../subgraphs/platform/user-access/user-access.rules.js';

/** The documented table: every (status, action) pair, null where the move is illegal. */
const EXPECTED: Record<AccessStatus, Record<AccessAction, AccessStatus | null>> = {
  active: { suspend: 'suspended', reactivate: null, revoke: 'revoked' },
  suspended: { suspend: null, reactivate: 'active', revoke: 'revoked' },
  revoked: { suspend: null, reactivate: null, revoke: null },
};

const pairs = ACCESS_STATUSES.flatMap((s) => ACCESS_ACTIONS.map((a) => [s, a, EXPECTED[s][a]] as const));

describe('user access state machine', () => {
  test('the table covers every status and action', () => {
    expect(pairs).toHaveLength(9);
  });

  test.each(pairs.filter(([, , to]) => to !== null))('%s --%s--> %s', (from, action, to) => {
    expect(canTransition(from, action)).toBe(true);
    expect(nextStatus(from, action)).toBe(to);
  });

  test.each(pairs.filter(([, , to]) => to === null))('%s --%s--> INVALID_STATE_TRANSITION (409)', (from, action) => {
    expect(canTransition(from, action)).toBe(false);
    let err: unknown;
    try {
      nextStatus(from, action);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    const d = err as DomainError;
    expect(d.code).toBe('INVALID_STATE_TRANSITION');
    expect(d.status).toBe(409);
    expect(d.message).toContain(from);
    expect(d.message).toContain(action);
    expect(d.opts.meta).toMatchObject({ from, action });
  });

  test('revoked is terminal: no move leaves it', () => {
    expect(ACCESS_ACTIONS.some((a) => canTransition('revoked', a))).toBe(false);
  });

  test('only active grants give access', () => {
    expect(ACCESS_STATUSES.filter(grantsAccess)).toEqual(['active']);
  });
});

describe('roles', () => {
  test('owner > admin > member > viewer', () => {
    expect(ACCESS_ROLES).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(strongerRole('viewer', 'admin')).toBe('admin');
    expect(strongerRole('owner', 'member')).toBe('owner');
    expect(strongerRole('member', 'viewer')).toBe('member');
    expect(strongerRole('admin', 'admin')).toBe('admin');
  });
});
