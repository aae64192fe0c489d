// The user-access state machine and role table: pure, no I/O (unit-tested move by move).
//
//   active ──suspend──▶ suspended ──reactivate──▶ active
//   active | suspended ──revoke──▶ revoked            (terminal: grant again for a new record)
//
// Anything else (suspending a suspended grant, reactivating an active one, any move out of
// revoked) is INVALID_STATE_TRANSITION (409).
import { DomainError } from '../../../lib/errors.js';

export const ACCESS_STATUSES = ['active', 'suspended', 'revoked'] as const;
export type AccessStatus = (typeof ACCESS_STATUSES)[number];

export const ACCESS_ACTIONS = ['suspend', 'reactivate', 'revoke'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** Roles, strongest first. */
export const ACCESS_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];
export const DEFAULT_ROLE: AccessRole = 'member';

export const ACCESS_TARGETS = ['account', 'app'] as const;
export type AccessTarget = (typeof ACCESS_TARGETS)[number];

export const TRANSITIONS: Readonly<Record<AccessAction, { from: readonly AccessStatus[]; to: AccessStatus }>> = {
  suspend: { from: ['active'], to: 'suspended' },
  reactivate: { from: ['suspended'], to: 'active' },
  revoke: { from: ['active', 'suspended'], to: 'revoked' },
};

export function canTransition(from: AccessStatus, action: AccessAction): boolean {
  return TRANSITIONS[action].from.includes(from);
}

/** The status after `action`, or INVALID_STATE_TRANSITION naming both ends. */
export function nextStatus(from: AccessStatus, action: AccessAction): AccessStatus {
  if (!canTransition(from, action)) {
    const allowed = TRANSITIONS[action].from.join(' or ');
    throw new DomainError('INVALID_STATE_TRANSITION', `Cannot ${action} an access that is ${from} (only ${allowed} accesses can be ${pastTense(action)})`, {
      meta: { from, action, allowedFrom: [...TRANSITIONS[action].from] },
    });
  }
  return TRANSITIONS[action].to;
}

function pastTense(action: AccessAction): string {
  return action === 'suspend' ? 'suspended' : action === 'reactivate' ? 'reactivated' : 'revoked';
}

/** Does a grant count for /users/:user_id/apps|accounts? Only active ones do. */
export function grantsAccess(status: AccessStatus): boolean {
  return status === 'active';
}

/** The stronger of two roles (an account grant and an app grant may both reach one app). */
export function strongerRole(a: AccessRole, b: AccessRole): AccessRole {
  return ACCESS_ROLES.indexOf(a) <= ACCESS_ROLES.indexOf(b) ? a : b;
}
