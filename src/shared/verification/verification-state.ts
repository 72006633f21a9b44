/**
 * A profile's verification as a state machine (issue #23 part 2, docs/decisions/0034):
 *
 *   none ──submit──▶ pending ──approve──▶ verified ──photos added──▶ recheck
 *                      │                    ▲                          │
 *                      └──reject──▶ rejected ◀────────reject───────────┤
 *                                  │                                   │
 *                                  └──submit──▶ pending      approve───┘ (back to verified)
 *
 * Only `verified` shows the public badge. The server applies every change through `transition`,
 * so a request the state does not allow (a second selfie while one waits, an approval of nothing)
 * is refused instead of corrupting the record.
 */
export const VERIFICATION_STATUSES = ['none', 'pending', 'verified', 'recheck', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export type VerificationEvent =
  | { type: 'submit' }
  | { type: 'approve' }
  | { type: 'reject'; reason: string }
  | { type: 'photos-added' };

export type VerificationRecord = { status: VerificationStatus; reason: string | null };

/** The next record, or null when `event` is not allowed in `current.status`. */
export function transition(current: VerificationRecord, event: VerificationEvent): VerificationRecord | null {
  switch (event.type) {
    case 'submit':
      return current.status === 'none' || current.status === 'rejected' ? { status: 'pending', reason: null } : null;
    case 'approve':
      return current.status === 'pending' || current.status === 'recheck' ? { status: 'verified', reason: null } : null;
    case 'reject':
      return current.status === 'pending' || current.status === 'recheck'
        ? { status: 'rejected', reason: event.reason }
        : null;
    case 'photos-added':
      return current.status === 'verified' ? { status: 'recheck', reason: null } : null;
  }
}

/** Whether the public badge shows. */
export function hasBadge(status: VerificationStatus): boolean {
  return status === 'verified';
}

/** Whether the person may send a (new) selfie. */
export function canSubmit(status: VerificationStatus): boolean {
  return transition({ status, reason: null }, { type: 'submit' }) !== null;
}
