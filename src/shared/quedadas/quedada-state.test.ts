import { describe, expect, it } from 'vitest';
import type { QuedadaActionRequest, QuedadaStatus } from './quedada-schemas.ts';
import { availableActions, type QuedadaState, transition } from './quedada-state.ts';

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000002';
const now = new Date('2026-03-10T09:00:00.000Z');
const inHours = (hours: number) => new Date(now.getTime() + hours * 3600_000).toISOString();

const state = (overrides: Partial<QuedadaState> = {}): QuedadaState => ({
  status: 'proposed',
  proposerId: A,
  proposedBy: A,
  startsAt: inHours(24),
  durationMin: 90,
  history: [],
  confirmations: { [A]: null, [B]: null },
  members: [A, B],
  ...overrides,
});
const act = (action: QuedadaActionRequest['action'], extra: Record<string, unknown> = {}) =>
  ({ clientId: 'c1', action, ...extra }) as QuedadaActionRequest;

describe('the quedada state machine', () => {
  it('proposed → accepted / declined by the other member, never by the proposer', () => {
    expect(transition(state(), act('accept'), B, now)).toEqual({ ok: true, patch: { status: 'accepted' } });
    expect(transition(state(), act('decline'), B, now)).toEqual({ ok: true, patch: { status: 'declined' } });
    expect(transition(state(), act('accept'), A, now)).toMatchObject({ ok: false, status: 403, error: 'ownProposal' });
  });

  it('proposed → countered: the new time becomes the proposal, the old one goes to the history', () => {
    const result = transition(state(), act('counter', { startsAt: inHours(48), durationMin: 60 }), B, now);
    expect(result).toMatchObject({
      ok: true,
      patch: {
        status: 'countered',
        proposedBy: B,
        startsAt: inHours(48),
        durationMin: 60,
        history: [{ by: A, startsAt: inHours(24), durationMin: 90, at: now.toISOString() }],
      },
    });
    // Now A answers B's proposal.
    const countered = state({ status: 'countered', proposedBy: B, startsAt: inHours(48) });
    expect(transition(countered, act('accept'), A, now)).toMatchObject({ ok: true, patch: { status: 'accepted' } });
    expect(transition(countered, act('accept'), B, now)).toMatchObject({ ok: false, error: 'ownProposal' });
  });

  it('proposed → cancelled by its author only; accepted → cancelled by either, late when under 2 h', () => {
    expect(transition(state(), act('cancel'), A, now)).toMatchObject({
      ok: true,
      patch: { status: 'cancelled', isLateCancel: false },
    });
    expect(transition(state(), act('cancel'), B, now)).toMatchObject({ ok: false, error: 'cannotCancel' });
    const accepted = state({ status: 'accepted' });
    expect(transition(accepted, act('cancel'), B, now)).toMatchObject({
      ok: true,
      patch: { cancelledBy: B, isLateCancel: false },
    });
    const soon = state({ status: 'accepted', startsAt: inHours(1.5) });
    expect(transition(soon, act('cancel'), A, now)).toMatchObject({ ok: true, patch: { isLateCancel: true } });
    const started = state({ status: 'accepted', startsAt: inHours(-0.5) });
    expect(transition(started, act('cancel'), A, now)).toMatchObject({ ok: false, error: 'notAnswerable' });
  });

  it('accepted → done when both say yes, missed on any no; only after the end, once each', () => {
    const ended = state({ status: 'accepted', startsAt: inHours(-2) });
    expect(transition(state({ status: 'accepted' }), act('confirm', { trained: true }), A, now)).toMatchObject({
      ok: false,
      error: 'notEnded',
    });
    const first = transition(ended, act('confirm', { trained: true }), A, now);
    expect(first).toMatchObject({ ok: true, patch: { status: 'accepted', confirmations: { [A]: true, [B]: null } } });
    const half = state({ status: 'accepted', startsAt: inHours(-2), confirmations: { [A]: true, [B]: null } });
    expect(transition(half, act('confirm', { trained: true }), B, now)).toMatchObject({
      ok: true,
      patch: { status: 'done' },
    });
    expect(transition(half, act('confirm', { trained: false }), B, now)).toMatchObject({
      ok: true,
      patch: { status: 'missed' },
    });
    expect(transition(half, act('confirm', { trained: false }), A, now)).toMatchObject({
      ok: false,
      error: 'alreadyConfirmed',
    });
  });

  it('a cancelled quedada refuses every action; declined and ended ones refuse answers', () => {
    for (const action of ['accept', 'decline', 'cancel', 'confirm', 'counter'] as const) {
      const extra = action === 'counter' ? { startsAt: inHours(30), durationMin: 60 } : { trained: true };
      expect(transition(state({ status: 'cancelled' }), act(action, extra), B, now)).toMatchObject({
        ok: false,
        status: 409,
        error: 'cancelled',
      });
    }
    for (const status of ['declined', 'accepted', 'done', 'missed'] as QuedadaStatus[]) {
      expect(transition(state({ status }), act('accept'), B, now)).toMatchObject({ ok: false, status: 409 });
    }
    expect(transition(state({ startsAt: inHours(-1) }), act('accept'), B, now)).toMatchObject({
      ok: false,
      error: 'notAnswerable',
    });
  });

  it('refuses anyone outside the pair', () => {
    expect(transition(state(), act('accept'), 'c0000000-0000-4000-8000-000000000003', now)).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it('offers the buttons each member may press', () => {
    expect(availableActions(state(), B, now)).toEqual(['accept', 'decline', 'counter']);
    expect(availableActions(state(), A, now)).toEqual(['cancel']);
    expect(availableActions(state({ status: 'accepted', startsAt: inHours(-3) }), A, now)).toEqual(['confirm']);
  });
});
