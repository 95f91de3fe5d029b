import { DomainError } from '@/lib/platform/errors';

/**
 * The checkout session state machine, in one place. Every status change and every
 * "may this session still change?" question goes through here.
 *
 *   open ──prepare_payment──▶ payment_pending ──complete──▶ completed
 *     ▲                             │
 *     └───────payment_failed────────┤   (declined or cancelled at the provider: try again)
 *     │                             │
 *     └────────expire───────────────┴──▶ expired      (when expiresAt passes)
 */
export const SESSION_STATUSES = ['open', 'payment_pending', 'completed', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type SessionEvent = 'prepare_payment' | 'complete' | 'payment_failed' | 'expire';

const TRANSITIONS: Record<SessionStatus, Partial<Record<SessionEvent, SessionStatus>>> = {
  open: { prepare_payment: 'payment_pending', expire: 'expired' },
  payment_pending: { complete: 'completed', payment_failed: 'open', expire: 'expired' },
  completed: {},
  expired: {},
};

/** The status after `event`, or the contract error for a session that cannot take it. */
export function transition(status: SessionStatus, event: SessionEvent): SessionStatus {
  const next = TRANSITIONS[status][event];
  if (next) return next;
  throw notOpenError(status);
}

export function canTransition(status: SessionStatus, event: SessionEvent): boolean {
  return TRANSITIONS[status][event] !== undefined;
}

/** Has the session's time run out while it could still expire? (Expiry is computed lazily.) */
export function isDue(session: { status: SessionStatus; expiresAt: number }, now: number): boolean {
  return canTransition(session.status, 'expire') && now >= session.expiresAt;
}

/** The status a reader should see now: a session past its expiry is expired. */
export function statusAt(session: { status: SessionStatus; expiresAt: number }, now: number): SessionStatus {
  return isDue(session, now) ? transition(session.status, 'expire') : session.status;
}

/** Only open sessions take changes (lines, addresses, country, delivery option). */
export function assertOpen(status: SessionStatus): void {
  if (status !== 'open') throw notOpenError(status);
}

function notOpenError(status: SessionStatus): DomainError {
  if (status === 'expired') {
    return new DomainError('session_expired', 'The checkout session has expired; start a new one.');
  }
  return new DomainError('session_not_open', `The checkout session is ${status.replace('_', ' ')} and can no longer change.`, {
    extensions: { status },
  });
}
