import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  hasBadge,
  transition,
  VERIFICATION_STATUSES,
  type VerificationEvent,
  type VerificationStatus,
} from './verification-state.ts';

const at = (status: VerificationStatus, reason: string | null = null) => ({ status, reason });
const EVENTS: VerificationEvent[] = [
  { type: 'submit' },
  { type: 'approve' },
  { type: 'reject', reason: 'La pose no coincide.' },
  { type: 'photos-added' },
];

describe('verification state machine', () => {
  it('walks the happy path: none → pending → verified', () => {
    const pending = transition(at('none'), { type: 'submit' });
    expect(pending).toEqual({ status: 'pending', reason: null });
    expect(transition(pending ?? at('none'), { type: 'approve' })).toEqual({ status: 'verified', reason: null });
  });

  it('a rejection keeps its reason, and a new selfie clears it', () => {
    const rejected = transition(at('pending'), { type: 'reject', reason: 'No se te ve la cara.' });
    expect(rejected).toEqual({ status: 'rejected', reason: 'No se te ve la cara.' });
    expect(transition(rejected ?? at('none'), { type: 'submit' })).toEqual({ status: 'pending', reason: null });
  });

  it('new photos on a verified profile wait for a re-check, which approves or rejects', () => {
    const recheck = transition(at('verified'), { type: 'photos-added' });
    expect(recheck).toEqual({ status: 'recheck', reason: null });
    expect(transition(at('recheck'), { type: 'approve' })?.status).toBe('verified');
    expect(transition(at('recheck'), { type: 'reject', reason: 'Otra persona.' })).toEqual({
      status: 'rejected',
      reason: 'Otra persona.',
    });
  });

  it('refuses every move the diagram does not draw', () => {
    const allowed = new Set([
      'none:submit',
      'rejected:submit',
      'pending:approve',
      'recheck:approve',
      'pending:reject',
      'recheck:reject',
      'verified:photos-added',
    ]);
    for (const status of VERIFICATION_STATUSES) {
      for (const event of EVENTS) {
        const next = transition(at(status), event);
        expect(next === null, `${status}:${event.type}`).toBe(!allowed.has(`${status}:${event.type}`));
      }
    }
  });

  it('shows the badge only when verified, and takes a selfie only from none or rejected', () => {
    expect(VERIFICATION_STATUSES.filter(hasBadge)).toEqual(['verified']);
    expect(VERIFICATION_STATUSES.filter(canSubmit)).toEqual(['none', 'rejected']);
  });
});
